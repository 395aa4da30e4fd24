-- The built-in services that move money carry SAC 997158 (see the MySQL
-- migration of the same number).

-- +goose Up
UPDATE api_services SET sac_code = '997158'
WHERE builtin = 1 AND sac_code IS NULL AND slug IN ('payment-create', 'recharge-mobile', 'payout-transfer');

-- +goose Down
UPDATE api_services SET sac_code = NULL
WHERE builtin = 1 AND sac_code = '997158' AND slug IN ('payment-create', 'recharge-mobile', 'payout-transfer');
