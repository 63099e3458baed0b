package core

import . "time"

func later() Duration { return Second }
