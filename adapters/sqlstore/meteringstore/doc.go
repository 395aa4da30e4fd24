// Package meteringstore keeps the metering area's rows: the hit log and
// its batched inserts and settlements, holds, reports, the hourly usage
// roll-up and hit payloads. A metering batch's connection (adapters/sqlstore
// batchConn) is recognised by its UsageTally method. Repositories are built
// by adapters/sqlstore over a sqlbase.Base.
package meteringstore
