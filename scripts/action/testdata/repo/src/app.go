// @adr 0003
package app
