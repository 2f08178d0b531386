package massupdate

// StatusRefused says why the marketplace refuses a seller's change of a
// record's status from one value to another, or "" when it allows it. The
// rule (field notes: statuses online, in_moderation, rejected, disabled;
// the sandbox's moderationRule): moderation alone sets in_moderation and
// rejected, and a product moderation rejected or has not approved yet
// cannot go online. Issue 17 item 7: the form offers only what can
// succeed, and the preview and the form refuse the rest with this reason.
func StatusRefused(from, to string) string {
	switch {
	case from == to:
		return ""
	case to == "in_moderation" || to == "rejected":
		return "Only marketplace moderation sets this status."
	case to == "online" && from == "rejected":
		return "Moderation rejected this product: correct its card before putting it online."
	case to == "online" && from == "in_moderation":
		return "This product is still in moderation: it can go online once moderation approves it."
	}
	return ""
}
