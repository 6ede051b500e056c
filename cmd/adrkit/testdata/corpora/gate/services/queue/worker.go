// Package queue runs the workers.
//
// @adr 0002, 0099
package queue
