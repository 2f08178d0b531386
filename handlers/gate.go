package handlers

import "github.com/sellerdesk/sellerdesk/httpx/placegate"

// placeGate is a placegate.Gate (imports by seller, whole-catalogue
// exports by copy) under the names the handlers use.
type placeGate[K comparable] struct {
	gate *placegate.Gate[K]
	// held, when set, runs while a place is taken (tests hold one there
	// to see what a second request gets).
	held func()
}

func newPlaceGate[K comparable](max int) *placeGate[K] {
	return &placeGate[K]{gate: placegate.New[K](max)}
}

func (g *placeGate[K]) enter(k K) (release func(), ok bool) { return g.gate.Enter(k) }
func (g *placeGate[K]) taken() int                          { return g.gate.Taken() }
