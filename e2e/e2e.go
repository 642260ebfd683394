// Package e2e holds end-to-end tests: the real flowcabal binary driven
// over stdio and over loopback TCP, and in a real headless Neovim through
// the editors/nvim plugin. Neovim comes from scripts/install-test-deps.sh.
package e2e
