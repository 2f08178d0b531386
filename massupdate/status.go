package massupdate

import "github.com/sellerdesk/sellerdesk/i18n"

// StatusRefused says why the marketplace refuses a seller's change of a
// record's status from one value to another, or nothing when it allows
// it. The
// rule (field notes: statuses online, in_moderation, rejected, disabled;
// the sandbox's moderationRule): moderation alone sets in_moderation and
// rejected, and a product moderation rejected or has not approved yet
// cannot go online. The form offers only what can
// succeed, and the preview and the form refuse the rest with this reason.
func StatusRefused(from, to string) i18n.Msgs {
	switch {
	case from == to:
		return nil
	case to == "in_moderation" || to == "rejected":
		return i18n.Of(i18n.M("mass.status_moderation_only", nil))
	case to == "online" && from == "rejected":
		return i18n.Of(i18n.M("mass.status_rejected", nil))
	case to == "online" && from == "in_moderation":
		return i18n.Of(i18n.M("mass.status_in_moderation", nil))
	}
	return nil
}
