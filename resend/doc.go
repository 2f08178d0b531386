// Package resend holds the rules of resending an order's notifications:
// which orders one request may name (Select), when an order's
// notifications may be resent again and what the last resend queued
// (States), and how a selection is sent around its busy orders (Send).
//
// The marketplace refuses (429) a resend that touches a notification still
// processing, and refuses the whole request for one busy order; so:
//
//   - an order known to be busy (queued a moment ago, or refused with a
//     time) is not sent again before that time, and the free orders of a
//     selection go alone;
//   - a refusal that names one order of several drops that one and sends
//     the rest again (a refused request queued nothing); one that names
//     none is tried order by order; every attempt counts against
//     MaxRequests;
//   - what was queued and what is busy is kept in States, which the caller
//     stores (the dashboard keeps it in the session, so a reload, another
//     tab and every instance agree).
//
// A resend is never retried automatically: the user does. The package
// returns outcomes as values; the words are the caller's.
package resend
