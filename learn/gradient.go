package learn

import (
	"github.com/chaturaji/chaturaji/ai/nn"
)

// example is one training example: an encoded position and its target, the
// gain of each relative seat in points.
type example struct {
	features []uint16
	dense    [nn.NumDense]float32
	target   [nn.NumOutputs]float32
}

// trainer computes the loss and gradient of a network over examples.
type trainer struct {
	net   *nn.Net
	grads [][]float32 // shaped as net.Params()
	// The activations of the example being computed.
	acc nn.Accumulator
	h2  [nn.MaxHidden2]float32
}

func newTrainer(net *nn.Net) *trainer {
	t := &trainer{net: net}
	for _, p := range net.Params() {
		t.grads = append(t.grads, make([]float32, len(p)))
	}
	return t
}

// zero clears the gradient.
func (t *trainer) zero() {
	for _, g := range t.grads {
		clear(g)
	}
}

// forward returns the network's outputs for ex, before Scale, keeping the
// activations for backward.
func (t *trainer) forward(ex *example) [nn.NumOutputs]float32 {
	n := t.net
	h1, h2 := n.Hidden1, n.Hidden2
	a := t.acc.V[:h1]
	copy(a, n.B1)
	for _, f := range ex.features {
		col := n.W1[int(f)*h1 : int(f)*h1+h1]
		for i := range a {
			a[i] += col[i]
		}
	}
	for j, x := range ex.dense {
		if x != 0 {
			c := (nn.NumSparse + j) * h1
			col := n.W1[c : c+h1]
			for i := range a {
				a[i] += x * col[i]
			}
		}
	}
	hid := t.h2[:h2]
	copy(hid, n.B2)
	for i, x := range a {
		if x > 0 {
			row := n.W2[i*h2 : i*h2+h2]
			for k := range hid {
				hid[k] += x * row[k]
			}
		}
	}
	for k := range hid {
		hid[k] = max(hid[k], 0)
	}
	out := [nn.NumOutputs]float32(n.B3)
	for k, x := range hid {
		if x > 0 {
			row := n.W3[k*nn.NumOutputs : k*nn.NumOutputs+nn.NumOutputs]
			for o := range out {
				out[o] += x * row[o]
			}
		}
	}
	return out
}

// backward adds to the gradient the example's share of the loss's
// gradient, given dy, the loss's derivative by each output (before Scale).
func (t *trainer) backward(ex *example, dy [nn.NumOutputs]float32) {
	n := t.net
	h1, h2 := n.Hidden1, n.Hidden2
	gW1, gB1, gW2, gB2, gW3, gB3 := t.grads[0], t.grads[1], t.grads[2], t.grads[3], t.grads[4], t.grads[5]
	for o := range dy {
		gB3[o] += dy[o]
	}
	var d2 [nn.MaxHidden2]float32
	for k, x := range t.h2[:h2] {
		if x <= 0 {
			continue
		}
		row := n.W3[k*nn.NumOutputs : k*nn.NumOutputs+nn.NumOutputs]
		grow := gW3[k*nn.NumOutputs : k*nn.NumOutputs+nn.NumOutputs]
		s := float32(0)
		for o := range dy {
			grow[o] += x * dy[o]
			s += row[o] * dy[o]
		}
		d2[k] = s
		gB2[k] += s
	}
	var d1 [nn.MaxHidden1]float32
	for i, x := range t.acc.V[:h1] {
		if x <= 0 {
			continue
		}
		row := n.W2[i*h2 : i*h2+h2]
		grow := gW2[i*h2 : i*h2+h2]
		s := float32(0)
		for k := range grow {
			grow[k] += x * d2[k]
			s += row[k] * d2[k]
		}
		d1[i] = s
	}
	d := d1[:h1]
	for i := range d {
		gB1[i] += d[i]
	}
	for _, f := range ex.features {
		g := gW1[int(f)*h1 : int(f)*h1+h1]
		for i := range g {
			g[i] += d[i]
		}
	}
	for j, x := range ex.dense {
		if x != 0 {
			c := (nn.NumSparse + j) * h1
			g := gW1[c : c+h1]
			for i := range g {
				g[i] += x * d[i]
			}
		}
	}
}

// batch adds the gradient of the mean squared error over examples (in
// units of Scale) and returns the sum of their squared errors.
func (t *trainer) batch(exs []*example) float64 {
	scale := t.net.Scale
	norm := 2 / float32(len(exs)*nn.NumOutputs)
	sum := 0.0
	for _, ex := range exs {
		y := t.forward(ex)
		var dy [nn.NumOutputs]float32
		for o := range y {
			e := y[o] - ex.target[o]/scale
			sum += float64(e * e)
			dy[o] = norm * e
		}
		t.backward(ex, dy)
	}
	return sum
}

// loss returns the sum of squared errors over examples, without a
// gradient.
func (t *trainer) loss(exs []example) float64 {
	scale := t.net.Scale
	sum := 0.0
	for i := range exs {
		y := t.forward(&exs[i])
		for o := range y {
			e := y[o] - exs[i].target[o]/scale
			sum += float64(e * e)
		}
	}
	return sum
}
