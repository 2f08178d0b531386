// Package scaleout holds tests that run several dashboard instances, each
// with its own session store and marketplace client as separate processes
// would have, on one PostgreSQL session database and one marketplace
// sandbox: a session, its tokens, its logout and the per-seller mass-update
// lock must look the same from every instance.
//
// The tests need PostgreSQL: set SELLERDESK_TEST_POSTGRES_URL (the script
// sessions/testdata/start-postgres.sh starts a throwaway cluster and prints
// its URL). Without it they skip. The database restart test also starts a
// cluster of its own with Debian's initdb and pg_ctl.
package scaleout
