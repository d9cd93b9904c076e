package learn

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"

	"github.com/chaturaji/chaturaji/ai/nn"
)

// checkpoint is the training state after an epoch: the network, the
// optimiser, and the settings it was made with, which a resumed run must
// share.
type checkpoint struct {
	Settings string
	Epoch    int
	Net      []byte // a weights file
	Adam     Adam
}

// settings names everything in cfg that shapes the weights.
func (cfg *Config) settings() string {
	return fmt.Sprintf("%s seed %s games %d player %s nodes %d random %g lambda %g residual %v hidden %d,%d epochs %d batch %d rate %g",
		cfg.Preset.Name, cfg.Seed, cfg.Games, cfg.Player, cfg.Nodes, cfg.Random, cfg.Lambda, cfg.Residual, cfg.Hidden1, cfg.Hidden2, cfg.Epochs, cfg.Batch, cfg.Rate)
}

// saveCheckpoint writes the state after epoch epochs to path, through a
// temporary file so that a crash leaves the previous one whole.
func saveCheckpoint(path string, cfg *Config, net *nn.Net, opt *Adam, epoch int) error {
	w, err := net.MarshalBinary()
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(checkpoint{Settings: cfg.settings(), Epoch: epoch, Net: w, Adam: *opt}); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// loadCheckpoint reads the state a checkpoint holds, if it was made with
// the same settings.
func loadCheckpoint(path string, cfg *Config) (*nn.Net, *Adam, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, 0, err
	}
	var c checkpoint
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&c); err != nil {
		return nil, nil, 0, fmt.Errorf("learn: checkpoint %s: %v", path, err)
	}
	if c.Settings != cfg.settings() {
		return nil, nil, 0, fmt.Errorf("learn: checkpoint %s was made with other settings: %s", path, c.Settings)
	}
	net, err := nn.Parse(c.Net)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("learn: checkpoint %s: %v", path, err)
	}
	net.Note = cfg.Note
	params := net.Params()
	if len(c.Adam.M) != len(params) || len(c.Adam.V) != len(params) {
		return nil, nil, 0, fmt.Errorf("learn: checkpoint %s: optimiser state does not fit the network", path)
	}
	for i, p := range params {
		if len(c.Adam.M[i]) != len(p) || len(c.Adam.V[i]) != len(p) {
			return nil, nil, 0, fmt.Errorf("learn: checkpoint %s: optimiser state does not fit the network", path)
		}
	}
	return net, &c.Adam, c.Epoch, nil
}
