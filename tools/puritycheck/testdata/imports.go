package core

import (
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"sync/atomic"

	"github.com/colinmarc/hdfs/v2"
	"github.com/sirupsen/logrus"
	"github.com/spindle-yarn/spindle/yarnpb"
	"google.golang.org/grpc"
)
