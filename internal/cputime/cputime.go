// Package cputime reads how much CPU time the process has used. On a
// machine shared with other work, wall-clock time mostly measures the
// neighbours; benchmarks and reports that must hold up under load count
// CPU time instead.
package cputime
