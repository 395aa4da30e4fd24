-- Webhook signing secrets and provider keys are stored sealed with
-- AES-256-GCM ("enc:v1:<kid>:<base64(nonce|ciphertext)>"), longer than the
-- plaintext: a 500-character provider key seals to 720 characters. Sealed
-- values compare byte for byte (the conditional UPDATE of a rotation).

-- +goose Up
ALTER TABLE users MODIFY api_secret VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL;
ALTER TABLE api_services MODIFY provider_key VARCHAR(1024) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL;

-- +goose Down
ALTER TABLE api_services MODIFY provider_key VARCHAR(500) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NULL;
ALTER TABLE users MODIFY api_secret VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL;
