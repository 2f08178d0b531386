package browse

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// TestRefused: a 401 marks the credential rejected, a 403 revokes the
// copy, any other error changes nothing; a login lifts them (LoggedIn).
func TestRefused(t *testing.T) {
	r := newRig(t).synced(t)
	ctx := context.Background()
	reader := New(r.copy, nil)
	k := r.seller(reader, nil).Key()
	cred := copystore.CredentialOf("client", k.Env, "secret")
	readable := func() error { _, err := r.copy.Store().CountNomenclature(ctx, k, copystore.Query{}); return err }
	for _, err := range []error{errors.New("timeout"), apiclient.ErrRateLimited, apiclient.ErrNotFound} {
		if rerr := reader.Refused(ctx, k, cred, err); rerr != nil {
			t.Fatal(rerr)
		}
	}
	if rejected, err := r.copy.Store().CredentialRejected(ctx, cred); err != nil || rejected {
		t.Fatalf("not a refusal: credential rejected %v, %v", rejected, err)
	}
	if err := readable(); err != nil {
		t.Fatalf("not a refusal: copy %v", err)
	}
	if err := reader.Refused(ctx, k, cred, fmt.Errorf("list: %w", apiclient.ErrUnauthorized)); err != nil {
		t.Fatal(err)
	}
	if rejected, err := r.copy.Store().CredentialRejected(ctx, cred); err != nil || !rejected {
		t.Errorf("a 401: credential rejected %v, %v", rejected, err)
	}
	if err := readable(); err != nil {
		t.Errorf("a 401 revoked the copy: %v", err)
	}
	if err := reader.Refused(ctx, k, cred, fmt.Errorf("list: %w", apiclient.ErrForbidden)); err != nil {
		t.Fatal(err)
	}
	if err := readable(); !errors.Is(err, copystore.ErrRevoked) {
		t.Errorf("a 403: copy %v, want revoked", err)
	}
	// A login that succeeded lifts both.
	if err := reader.LoggedIn(ctx, k, cred, r.src); err != nil {
		t.Fatal(err)
	}
	if rejected, err := r.copy.Store().CredentialRejected(ctx, cred); err != nil || rejected {
		t.Errorf("after a login: credential rejected %v, %v", rejected, err)
	}
	if err := readable(); err != nil {
		t.Errorf("after a login: copy %v", err)
	}
}
