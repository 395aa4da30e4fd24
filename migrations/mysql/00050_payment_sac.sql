-- A SAC per service (docs/decisions.md, "Tax invoices, credit notes and
-- statements"): the built-in services that move money (payment create,
-- mobile recharge, payout) are financial transaction processing, SAC
-- 997158; account verification and account opening keep the supplier's
-- default (NULL). A SAC an admin already set is kept. On a fresh database
-- this changes nothing: the built-in services are created at start-up,
-- after the migrations, with the same codes (core/gateway Services).

-- +goose Up
UPDATE api_services SET sac_code = '997158'
WHERE builtin = 1 AND sac_code IS NULL AND slug IN ('payment-create', 'recharge-mobile', 'payout-transfer');

-- +goose Down
UPDATE api_services SET sac_code = NULL
WHERE builtin = 1 AND sac_code = '997158' AND slug IN ('payment-create', 'recharge-mobile', 'payout-transfer');
