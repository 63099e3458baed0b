package scheduler

import (
	"fmt"
	"math"
)

// Share is an amount of one GPU address in fixed point; One is the whole
// address. Its scale, lcm(1..16) × 10^6, makes every 1/n for n ≤ 16 and
// every decimal of up to six places exact: three tasks of 1/3 fill an
// address to the unit, three of 0.3 fit and a fourth does not. Floats would
// drift.
type Share int64

// One is a whole GPU address.
const One Share = 720720 * 1_000_000

// maxWholeGPUs bounds a whole-number request: no machine has more.
const maxWholeGPUs = 1 << 16

// GPURequest is what one task asks of GPUs: n whole addresses (n ≥ 1), or a
// fraction of one address. The zero value asks for none.
type GPURequest struct {
	whole    int
	fraction Share // in (0, One) when whole == 0
}

// ParseGPURequest reads a task's GPU amount: a whole number ≥ 1 or a
// fraction in (0,1). field names it in errors (e.g. "stage shard: gpus").
func ParseGPURequest(field string, amount float64) (GPURequest, error) {
	switch {
	case math.IsNaN(amount) || math.IsInf(amount, 0):
		return GPURequest{}, fmt.Errorf("%s: %v is not a number of GPUs", field, amount)
	case amount <= 0:
		return GPURequest{}, fmt.Errorf("%s: %v: a GPU amount must be above 0", field, amount)
	case amount < 1:
		f := Share(math.Round(amount * float64(One)))
		if f <= 0 {
			return GPURequest{}, fmt.Errorf("%s: %v is too small a share of a GPU", field, amount)
		}
		if f >= One { // 0.9999999999…: a whole GPU
			return GPURequest{whole: 1}, nil
		}
		return GPURequest{fraction: f}, nil
	case amount != math.Trunc(amount):
		return GPURequest{}, fmt.Errorf("%s: %v: above 1 a GPU amount must be whole (tasks share a GPU only below 1)", field, amount)
	case amount > maxWholeGPUs:
		return GPURequest{}, fmt.Errorf("%s: %v GPUs is more than any machine has", field, amount)
	}
	return GPURequest{whole: int(amount)}, nil
}

// WholeGPUs asks for n whole addresses.
func WholeGPUs(n int) GPURequest { return GPURequest{whole: n} }

// IsZero reports whether the request asks for no GPU.
func (g GPURequest) IsZero() bool { return g.whole == 0 && g.fraction == 0 }

// Whole is the number of whole addresses asked for (0 for a fraction).
func (g GPURequest) Whole() int { return g.whole }

// Fraction is the share of one address asked for (0 for whole requests).
func (g GPURequest) Fraction() Share { return g.fraction }

// slots is how many tasks asking g fit on gpus addresses: -1 for no limit.
func (g GPURequest) slots(gpus int) int {
	switch {
	case g.IsZero():
		return -1
	case g.whole > 0:
		return gpus / g.whole
	}
	return gpus * int(One/g.fraction)
}

func (g GPURequest) String() string {
	switch {
	case g.IsZero():
		return "0"
	case g.whole != 0: // negative in errors about WholeGPUs(-n)
		return fmt.Sprint(g.whole)
	}
	return fmt.Sprintf("%.6g", float64(g.fraction)/float64(One))
}
