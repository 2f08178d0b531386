// Package e2e holds the browser journeys: the whole dashboard, with the
// in-process marketplace sandbox, driven through Debian's headless Chromium
// by chromedp. The journeys live in the _test.go files; see README.md for
// what they cover and how to run them.
package e2e
