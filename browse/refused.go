package browse

import (
	"context"
	"errors"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// Refused acts on a refusal of the marketplace that a request met, at
// once rather than at the copy's next sync:
//
//   - a 401 a new token did not cure (apiclient.ErrUnauthorized) marks
//     cred rejected: every session holding it loses access, and nothing
//     is sent with it again until a login with it succeeds;
//   - a 403 (apiclient.ErrForbidden) revokes the copy k.
//
// Any other error is not a refusal and changes nothing. Only a refusal
// of the seller (a list, a token) may be given here: a 403 on one item
// (an order that is not the seller's) belongs beside that item.
func (r *Reader) Refused(ctx context.Context, k copystore.Key, cred copystore.Credential, err error) error {
	switch {
	case errors.Is(err, apiclient.ErrUnauthorized):
		return r.copy.Store().RejectCredential(ctx, cred)
	case errors.Is(err, apiclient.ErrForbidden):
		return r.copy.Store().Revoke(ctx, k)
	}
	return nil
}

// LoggedIn acts on a login with cred that succeeded: the credentials
// work, so they are no longer marked rejected; the copy k is readable
// again (a 403 had revoked it), copied again if it was forgotten, and
// its sync starts in the background through src.
func (r *Reader) LoggedIn(ctx context.Context, k copystore.Key, cred copystore.Credential, src copystore.Source) error {
	if err := r.copy.Store().Grant(ctx, k, cred); err != nil {
		return err
	}
	r.copy.UseAccepted(k, src)
	return nil
}
