package learn

import "math"

// Adam is the Adam optimiser (Kingma and Ba, 2014) over a list of
// parameter slices: each parameter keeps running means of its gradient (M)
// and of its square (V), and steps by their bias-corrected ratio.
type Adam struct {
	// Beta1 and Beta2 are the decay rates of the two moments; Epsilon
	// keeps the step finite where the second moment is 0.
	Beta1, Beta2, Epsilon float64
	// Step counts the steps taken.
	Step int
	// M and V are the moments, shaped as the parameters.
	M, V [][]float32
}

// NewAdam returns an optimiser for parameters shaped as params, with the
// usual constants (0.9, 0.999, 1e-8).
func NewAdam(params [][]float32) *Adam {
	a := &Adam{Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8}
	for _, p := range params {
		a.M = append(a.M, make([]float32, len(p)))
		a.V = append(a.V, make([]float32, len(p)))
	}
	return a
}

// Update takes one step of size rate on params along grads.
func (a *Adam) Update(params, grads [][]float32, rate float64) {
	a.Step++
	c1 := 1 - math.Pow(a.Beta1, float64(a.Step))
	c2 := 1 - math.Pow(a.Beta2, float64(a.Step))
	b1, b2 := float32(a.Beta1), float32(a.Beta2)
	lr := float32(rate * math.Sqrt(c2) / c1)
	eps := float32(a.Epsilon * math.Sqrt(c2))
	for j, p := range params {
		g, m, v := grads[j], a.M[j], a.V[j]
		g, m, v = g[:len(p)], m[:len(p)], v[:len(p)]
		for i := range p {
			m[i] = b1*m[i] + (1-b1)*g[i]
			v[i] = b2*v[i] + (1-b2)*g[i]*g[i]
			p[i] -= lr * m[i] / (float32(math.Sqrt(float64(v[i]))) + eps)
		}
	}
}
