import { describe, expect, it } from 'vitest';
import { renderHook, act } from '@testing-library/react';
import { useForm } from '@mantine/form';
import { ApiError } from '../api/errors';
import { applyApiErrors, useApiFormErrors } from './useApiFormErrors';

const body422 = {
  success: false,
  message: 'Validation failed',
  error: 'validation_failed',
  request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
  errors: { email: ['has already been taken'], phone: ['has already been taken', 'is too short'], captcha: ['is wrong'] },
};

function useTestForm() {
  return useForm({ mode: 'uncontrolled', initialValues: { email: '', phone: '', address: { city: '' } } });
}

describe('applyApiErrors', () => {
  it('puts each field error on its field and returns the rest', () => {
    const { result } = renderHook(() => useTestForm());
    let left: string | null = null;
    act(() => {
      left = applyApiErrors(result.current, ApiError.from(422, body422));
    });
    expect(result.current.errors.email).toBe('has already been taken');
    expect(result.current.errors.phone).toBe('has already been taken is too short');
    expect(left).toBe('Validation failed: captcha: is wrong');
  });

  it('maps API names to form paths, nested ones too', () => {
    const { result } = renderHook(() => useTestForm());
    act(() => {
      const left = applyApiErrors(result.current, ApiError.from(422, { ...body422, errors: { city: ['is required'] } }), { city: 'address.city' });
      expect(left).toBeNull();
    });
    expect(result.current.errors['address.city']).toBe('is required');
  });

  it('returns the message of an error without field errors', () => {
    const { result } = renderHook(() => useTestForm());
    const left = applyApiErrors(result.current, ApiError.from(401, { success: false, message: 'Invalid email or password', error: 'invalid_credentials' }));
    expect(left).toBe('Invalid email or password');
    expect(result.current.errors).toEqual({});
  });
});

describe('useApiFormErrors', () => {
  it('keeps the form-level error in state', () => {
    const { result } = renderHook(() => {
      const form = useTestForm();
      return { form, ...useApiFormErrors(form) };
    });
    act(() => result.current.onApiError(ApiError.from(429, { success: false, message: 'Too many attempts', error: 'too_many_login_attempts' })));
    expect(result.current.formError).toBe('Too many attempts');
    act(() => result.current.clearFormError());
    expect(result.current.formError).toBeNull();
  });
});
