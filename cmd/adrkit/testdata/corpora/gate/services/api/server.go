// @adr 0005
package api
