package core

import "os"

var _ = os.Getenv
