// @adr 0005
// @adr 0001, 0099
// @adr payments:0042
package nightly
