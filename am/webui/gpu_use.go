package webui

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/spindle-yarn/spindle/am/history"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

// GPU figures are live only: what each executor's nvidia-smi said last
// (core.Status's executors, am/gpus.go). An executor shows its GPUs'; a
// running task the figures of the GPUs its addresses name, by index or
// UUID.

// Executor is an executor as the API gives it: its history, and while
// the application runs its GPUs' latest figures.
type Executor struct {
	history.ExecutorView
	GPUUse []gpuuse.Sample `json:"gpuUse,omitempty"`
}

// Task is a task as the API gives it: its latest attempt, and while it
// runs the latest figures of its GPUs.
type Task struct {
	history.TaskView
	GPUUse []gpuuse.Sample `json:"gpuUse,omitempty"`
}

// TaskPage is a page of a stage's tasks as the API gives it.
type TaskPage struct {
	history.TaskPage
	Tasks []Task `json:"tasks"`
}

// gpuFigures are each live executor's GPUs' latest figures.
func (u *ui) gpuFigures(r *http.Request) map[string][]gpuuse.Sample {
	out := map[string][]gpuuse.Sample{}
	if st := u.live(r); st != nil {
		for _, x := range st.Executors {
			if len(x.GPUs) > 0 {
				out[x.ID] = x.GPUs
			}
		}
	}
	return out
}

func (u *ui) executors(r *http.Request) []Executor {
	figures := u.gpuFigures(r)
	var out []Executor
	for _, x := range u.o.Store.Executors(u.o.Now()) {
		e := Executor{ExecutorView: x}
		if x.State == "active" {
			e.GPUUse = figures[x.ID]
		}
		out = append(out, e)
	}
	return out
}

// withGPUUse gives a page's running tasks their GPUs' figures.
func (u *ui) withGPUUse(r *http.Request, p history.TaskPage) TaskPage {
	figures := u.gpuFigures(r)
	out := TaskPage{TaskPage: p, Tasks: make([]Task, 0, len(p.Tasks))}
	for _, t := range p.Tasks {
		task := Task{TaskView: t}
		if t.State == history.TaskRunning {
			task.GPUUse = gpusNamed(figures[t.Executor], t.GPUs)
		}
		out.Tasks = append(out.Tasks, task)
	}
	return out
}

// gpusNamed are the samples of the GPUs addresses name: an address is a
// GPU's index or its UUID.
func gpusNamed(samples []gpuuse.Sample, addresses []string) []gpuuse.Sample {
	var out []gpuuse.Sample
	for _, s := range samples {
		for _, a := range addresses {
			if a == strconv.Itoa(s.Index) || (s.UUID != "" && a == s.UUID) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// formatGPUUse says GPUs' figures for people: "GPU 0 37% 1024/81559 MiB",
// ? for a figure nvidia-smi had not.
func formatGPUUse(samples []gpuuse.Sample) string {
	var parts []string
	for _, s := range samples {
		util, used, total := "?", "?", "?"
		if s.UtilizationPct != nil {
			util = strconv.Itoa(*s.UtilizationPct)
		}
		if s.MemoryUsedMiB != nil {
			used = strconv.FormatInt(*s.MemoryUsedMiB, 10)
		}
		if s.MemoryTotalMiB != nil {
			total = strconv.FormatInt(*s.MemoryTotalMiB, 10)
		}
		parts = append(parts, fmt.Sprintf("GPU %d %s%% %s/%s MiB", s.Index, util, used, total))
	}
	return strings.Join(parts, "; ")
}
