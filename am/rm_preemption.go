package am

import (
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// preemptedContainers are the containers a PreemptionMessage names: the
// strict contract's (the RM will take them whatever the AM does) and the
// negotiable one's (it will take them unless the AM gives back as much
// of the resources it asks for; the CapacityScheduler fills only this
// one). Spindle gives back exactly the containers named, either way. A
// container named in both is named once.
func preemptedContainers(m *hadoopyarn.PreemptionMessageProto) []string {
	var ids []string
	seen := map[string]bool{}
	for _, list := range [][]*hadoopyarn.PreemptionContainerProto{m.GetStrictContract().GetContainer(), m.GetContract().GetContainer()} {
		for _, c := range list {
			if id := yarn.ContainerID(c.GetId()); !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids
}
