// Signing in and the account's public flows: login, register, verify the
// email, forgot and reset the password (POST /auth/...). The session's own
// calls (refresh, logout, GET /auth/me) are in src/auth.
import { api, call } from '../../api/client';
import type { Schemas, TokenResponse, User } from '../../api/types';
import { session } from '../../auth/session';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';

type LoginRequest = Schemas['LoginRequest'];

/** Signs in; the tokens become the session, then the screen goes on. */
export function useLogin(config?: MutationConfig<TokenResponse, LoginRequest>) {
  return useFeatureMutation({
    mutationFn: (body: LoginRequest) => call(api.POST('/api/v1/panel/auth/login', { body })),
    onSuccess: (_qc, t) => session.signIn(t),
  }, config);
}

export function useRegister(config?: MutationConfig<User, Schemas['RegisterRequest']>) {
  return useFeatureMutation({
    mutationFn: (body: Schemas['RegisterRequest']) => call(api.POST('/api/v1/panel/auth/register', { body })),
  }, config);
}

/** Verifies the email with the mailed token. */
export function useVerifyEmail(config?: MutationConfig<unknown, string>) {
  return useFeatureMutation({
    mutationFn: (token: string) => call(api.POST('/api/v1/panel/auth/verify-email', { body: { token } })),
  }, config);
}

/** Mails a reset link (the answer is the same whether the account exists or not). */
export function useForgotPassword(config?: MutationConfig<Schemas['Message'], Schemas['ForgotPasswordRequest']>) {
  return useFeatureMutation({
    mutationFn: (body: Schemas['ForgotPasswordRequest']) => call(api.POST('/api/v1/panel/auth/forgot-password', { body })),
  }, config);
}

export function useResetPassword(config?: MutationConfig<unknown, Schemas['ResetPasswordRequest']>) {
  return useFeatureMutation({
    mutationFn: (body: Schemas['ResetPasswordRequest']) => call(api.POST('/api/v1/panel/auth/reset-password', { body })),
  }, config);
}
