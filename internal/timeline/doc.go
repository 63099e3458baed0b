// Package timeline is a simulated clock's queue of what happens next,
// for the deterministic simulations (am/sim, am/faultsim): events come
// out earliest first, and those at one instant in the order they were
// put in, so that a seed's run is the same every time.
package timeline
