package mysqlstore

// MySQLConfig exposes the URL-to-driver-config conversion to the tests.
var MySQLConfig = mysqlConfig
