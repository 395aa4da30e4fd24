import { describe, expect, it } from 'vitest';
import { buildCall, checkAll, checkField, choicesOf, fieldsFromParameters, fieldsFromSpecs, type Field } from './paramForm';

const specs = {
  template_id: { type: 'string' as const, required: false, max_length: 10 },
  phone: { type: 'string' as const, required: true, pattern: '^[0-9]{10}$', description: '10-digit mobile' },
  count: { type: 'integer' as const, required: true },
  amount: { type: 'number' as const, required: false },
  flash: { type: 'boolean' as const, required: false },
  dob: { type: 'date' as const, required: false },
  channel: { type: 'string' as const, required: true, pattern: '^(sms|whatsapp)$' },
};

describe('the try-it form from request_params', () => {
  it('has one field per parameter, required first, with its rules', () => {
    const fields = fieldsFromSpecs(specs);
    expect(fields.map((f) => f.name)).toEqual(['channel', 'count', 'phone', 'amount', 'dob', 'flash', 'template_id']);
    expect(fields.find((f) => f.name === 'phone')).toMatchObject({ type: 'string', required: true, pattern: '^[0-9]{10}$', description: '10-digit mobile' });
    expect(fields.find((f) => f.name === 'channel')?.choices).toEqual(['sms', 'whatsapp']);
    expect(fields.find((f) => f.name === 'template_id')).toMatchObject({ maxLength: 10, required: false });
  });

  it('reads literal choices from a pattern and nothing else', () => {
    expect(choicesOf('^(?:upi|imps|neft)$')).toEqual(['upi', 'imps', 'neft']);
    expect(choicesOf('^[0-9]{10}$')).toBeNull();
    expect(choicesOf('^(a.*|b)$')).toBeNull();
    expect(choicesOf(undefined)).toBeNull();
  });

  it('falls back to the parameter list, every entry optional', () => {
    expect(fieldsFromParameters({ upi_id: 'string', limit: 'integer' })).toEqual([
      { name: 'limit', type: 'integer', required: false, description: undefined, maxLength: undefined, pattern: undefined },
      { name: 'upi_id', type: 'string', required: false, description: undefined, maxLength: undefined, pattern: undefined },
    ]);
    expect(fieldsFromSpecs(null)).toEqual([]);
  });

  it('checks values the way the API does', () => {
    const f = Object.fromEntries(fieldsFromSpecs(specs).map((x) => [x.name, x])) as Record<string, Field>;
    expect(checkField(f.phone!, '')).toBe('is required');
    expect(checkField(f.phone!, '98765')).toBe('has an invalid format');
    expect(checkField(f.phone!, '9876543210')).toBeNull();
    expect(checkField(f.count!, '1.5')).toBe('must be an integer');
    expect(checkField(f.amount!, 'NaN')).toBe('must be a number');
    expect(checkField(f.amount!, '12.50')).toBeNull();
    expect(checkField(f.flash!, 'yes')).toBe('must be true or false');
    expect(checkField(f.dob!, '01-02-2020')).toBe('must be a date as YYYY-MM-DD');
    expect(checkField(f.template_id!, 'x'.repeat(11))).toBe('must be at most 10 characters');
    expect(checkField(f.template_id!, '')).toBeNull();
    expect(checkAll(fieldsFromSpecs(specs), { phone: '1', count: '', channel: 'sms' })).toEqual({ phone: 'has an invalid format', count: 'is required' });
  });

  it('sends a JSON body with numbers as typed (never through a float) and leaves out empty optional fields', () => {
    const fields = fieldsFromSpecs(specs);
    const call = buildCall('POST', fields, {
      phone: '9876543210', count: '3', amount: '12345678901234567.10', flash: 'true', channel: 'sms', template_id: '', dob: '',
    });
    expect(call.query).toBe('');
    expect(call.body).toBe('{"channel":"sms","count":3,"phone":"9876543210","amount":12345678901234567.10,"flash":true}');
    expect(JSON.parse(call.body!)).toMatchObject({ count: 3, flash: true });
  });

  it('sends a query string for GET and DELETE services', () => {
    const fields = fieldsFromParameters({ upi_id: 'string', limit: 'integer' });
    expect(buildCall('GET', fields, { upi_id: 'name@bank', limit: '' })).toEqual({ query: '?upi_id=name%40bank' });
    expect(buildCall('DELETE', fields, { upi_id: '', limit: '' })).toEqual({ query: '' });
  });

  it('nests dotted names into objects in a JSON body (payout-transfer’s beneficiary.*), and only there', () => {
    const fields = fieldsFromSpecs({
      amount: { type: 'number', required: true },
      'beneficiary.type': { type: 'string', required: true, pattern: '^(bank_account|vpa)$' },
      'beneficiary.name': { type: 'string', required: true },
      'beneficiary.account_number': { type: 'string', required: false },
      'beneficiary.ifsc': { type: 'string', required: false },
      'beneficiary.vpa': { type: 'string', required: false },
      mode: { type: 'string', required: false },
      reference_id: { type: 'string', required: true },
    });
    const values = {
      amount: '100.50', 'beneficiary.type': 'bank_account', 'beneficiary.name': 'Ravi Kumar', 'beneficiary.account_number': '123456781234',
      'beneficiary.ifsc': 'HDFC0001234', 'beneficiary.vpa': '', mode: 'IMPS', reference_id: 'ref-1',
    };
    const call = buildCall('POST', fields, values);
    expect(JSON.parse(call.body!)).toEqual({
      amount: 100.5, reference_id: 'ref-1', mode: 'IMPS',
      beneficiary: { type: 'bank_account', name: 'Ravi Kumar', account_number: '123456781234', ifsc: 'HDFC0001234' },
    });
    expect(call.body).toContain('"amount":100.50'); // still as typed
    // A query string keeps the names as they are.
    expect(buildCall('GET', fields, { ...values, amount: '', 'beneficiary.account_number': '', 'beneficiary.ifsc': '', mode: '' }).query)
      .toBe('?beneficiary.name=Ravi+Kumar&beneficiary.type=bank_account&reference_id=ref-1');
  });

  it('keeps a dotted name flat when its path runs into a plain member', () => {
    const fields = fieldsFromSpecs({ a: { type: 'string', required: true }, 'a.b': { type: 'string', required: true }, 'x..y': { type: 'string', required: true } });
    expect(JSON.parse(buildCall('POST', fields, { a: '1', 'a.b': '2', 'x..y': '3' }).body!)).toEqual({ a: '1', 'a.b': '2', 'x..y': '3' });
  });
});
