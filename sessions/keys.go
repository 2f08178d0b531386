package sessions

import (
	"bytes"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gorilla/securecookie"
	"golang.org/x/crypto/chacha20poly1305"
)

// KeySize is the size in bytes of a session key.
const KeySize = 32

// ParseKeys parses a comma-separated list of session keys, each 64
// hexadecimal characters (32 bytes), as given in SELLERDESK_SESSION_KEY. The
// first key seals and signs; the others only open and verify, which is how a
// key is rotated. Error messages never quote the keys.
func ParseKeys(s string) ([][]byte, error) {
	parts := strings.Split(s, ",")
	keys := make([][]byte, 0, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			if len(parts) == 1 {
				return nil, errors.New("sessions: no session key given")
			}
			return nil, fmt.Errorf("sessions: session key %d of %d is empty", i+1, len(parts))
		}
		k, err := hex.DecodeString(p)
		if err != nil || len(k) != KeySize {
			return nil, fmt.Errorf("sessions: session key %d of %d is not %d hexadecimal characters", i+1, len(parts), 2*KeySize)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// LoadOrCreateKeyFile reads a session key (64 hexadecimal characters) from
// path. When the file does not exist it generates a random key and writes it
// with permissions 0600, reporting created = true; two processes racing to
// create it end up with the same key. A key file readable by group or others
// is refused, since the key opens every stored session.
func LoadOrCreateKeyFile(path string) (key []byte, created bool, err error) {
	key, err = readKeyFile(path)
	if err == nil {
		return key, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, err
	}
	key = make([]byte, KeySize)
	rand.Read(key) // never returns an error (crypto/rand, Go 1.24+)

	// Write to a temporary file, then link it into place: the link fails
	// if another process got there first, and a reader never sees a
	// half-written key.
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".sessionkey-*")
	if err != nil {
		return nil, false, fmt.Errorf("sessions: create key file: %w", err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, false, fmt.Errorf("sessions: create key file: %w", err)
	}
	if _, err := tmp.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		tmp.Close()
		return nil, false, fmt.Errorf("sessions: write key file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, false, fmt.Errorf("sessions: write key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, false, fmt.Errorf("sessions: write key file: %w", err)
	}
	if err := os.Link(tmpName, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			key, err = readKeyFile(path)
			return key, false, err
		}
		return nil, false, fmt.Errorf("sessions: create key file: %w", err)
	}
	return key, true, nil
}

func readKeyFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("sessions: read key file: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("sessions: key file %s is accessible by group or others (mode %v); run chmod 600 on it", path, st.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sessions: read key file: %w", err)
	}
	keys, err := ParseKeys(string(bytes.TrimSpace(b)))
	if err != nil {
		return nil, fmt.Errorf("sessions: key file %s: %w", path, err)
	}
	if len(keys) != 1 {
		return nil, fmt.Errorf("sessions: key file %s holds %d keys, want 1", path, len(keys))
	}
	return keys[0], nil
}

// Labels for HKDF: one session key yields independent keys for each purpose,
// so a weakness in one use cannot leak into another.
const (
	infoCookieMAC = "sellerdesk/sessions/v1/cookie-mac"
	infoSealKey   = "sellerdesk/sessions/v1/seal"
	infoKeyID     = "sellerdesk/sessions/v1/key-id"
)

// keyIDSize is the size of the key id that prefixes every sealed value, so
// that opening picks the right key at once instead of trying them all.
const keyIDSize = 4

// derivedKey holds the keys derived from one session key.
type derivedKey struct {
	id    [keyIDSize]byte
	codec *securecookie.SecureCookie
	seal  []byte
}

// keyring holds the derived keys of Options.Keys; the first one is current.
type keyring struct {
	keys []derivedKey
}

func newKeyring(keys [][]byte, cookieMaxAge int) (*keyring, error) {
	if len(keys) == 0 {
		return nil, errors.New("sessions: no session key given")
	}
	kr := &keyring{}
	for i, k := range keys {
		if len(k) != KeySize {
			return nil, fmt.Errorf("sessions: session key %d of %d is %d bytes, want %d", i+1, len(keys), len(k), KeySize)
		}
		mac, err := hkdf.Key(sha256.New, k, nil, infoCookieMAC, 32)
		if err != nil {
			return nil, fmt.Errorf("sessions: derive key: %w", err)
		}
		seal, err := hkdf.Key(sha256.New, k, nil, infoSealKey, chacha20poly1305.KeySize)
		if err != nil {
			return nil, fmt.Errorf("sessions: derive key: %w", err)
		}
		id, err := hkdf.Key(sha256.New, k, nil, infoKeyID, keyIDSize)
		if err != nil {
			return nil, fmt.Errorf("sessions: derive key: %w", err)
		}
		codec := securecookie.New(mac, nil).
			SetSerializer(securecookie.NopEncoder{}).
			MaxAge(cookieMaxAge).
			MaxLength(512)
		dk := derivedKey{codec: codec, seal: seal}
		copy(dk.id[:], id)
		kr.keys = append(kr.keys, dk)
	}
	return kr, nil
}

// encodeCookie signs the raw session id with the current key.
func (kr *keyring) encodeCookie(name string, rawID []byte) (string, error) {
	return kr.keys[0].codec.Encode(name, rawID)
}

// decodeCookie verifies a cookie value with every key and returns the raw
// session id; current reports whether the current key signed it.
func (kr *keyring) decodeCookie(name, value string) (raw []byte, current bool, err error) {
	for i, k := range kr.keys {
		if err = k.codec.Decode(name, value, &raw); err == nil {
			return raw, i == 0, nil
		}
	}
	return nil, false, err
}

// sealOverhead is the size a sealed value adds to its plaintext.
const sealOverhead = keyIDSize + chacha20poly1305.NonceSizeX + chacha20poly1305.Overhead

// seal encrypts plaintext under the current key, binding it to ad. The
// result is key id || nonce || ciphertext and tag.
func (kr *keyring) seal(plaintext, ad []byte) []byte {
	k := kr.keys[0]
	aead, err := chacha20poly1305.NewX(k.seal)
	if err != nil {
		panic("sessions: " + err.Error()) // the key size is checked in newKeyring
	}
	out := make([]byte, keyIDSize+chacha20poly1305.NonceSizeX, sealOverhead+len(plaintext))
	copy(out, k.id[:])
	rand.Read(out[keyIDSize:])
	return aead.Seal(out, out[keyIDSize:], plaintext, ad)
}

// errUnsealable reports a sealed value that no configured key opens: it was
// tampered with, moved to another session, or sealed under a removed key.
var errUnsealable = errors.New("sessions: sealed value cannot be opened")

// open decrypts a value made by seal. current reports whether the current
// key opened it; when it is false the caller re-seals on its next write.
func (kr *keyring) open(sealed, ad []byte) (plaintext []byte, current bool, err error) {
	if len(sealed) < sealOverhead {
		return nil, false, errUnsealable
	}
	id := sealed[:keyIDSize]
	nonce := sealed[keyIDSize : keyIDSize+chacha20poly1305.NonceSizeX]
	ct := sealed[keyIDSize+chacha20poly1305.NonceSizeX:]
	for i, k := range kr.keys {
		if !bytes.Equal(k.id[:], id) {
			continue
		}
		aead, err := chacha20poly1305.NewX(k.seal)
		if err != nil {
			return nil, false, err
		}
		if pt, err := aead.Open(nil, nonce, ct, ad); err == nil {
			return pt, i == 0, nil
		}
	}
	return nil, false, errUnsealable
}
