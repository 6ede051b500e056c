// @adr 0007
package api
