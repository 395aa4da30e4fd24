import { describe, expect, it } from 'vitest';
import { chartAxisINR, chartNumber, compareDecimal, formatINR, signOf } from './money';

describe('formatINR', () => {
  it('groups digits the Indian way', () => {
    expect(formatINR('1234567.50')).toBe('₹12,34,567.50');
    expect(formatINR('100000.00')).toBe('₹1,00,000.00');
    expect(formatINR('999.00')).toBe('₹999.00');
  });

  it('keeps what the string says, beyond what a float holds', () => {
    // 2^53 + 1 is not representable as a double: a parseFloat would print ...992.
    expect(formatINR('9007199254740993.25')).toBe('₹9,00,71,99,25,47,40,993.25');
    expect(formatINR('0.1')).toBe('₹0.10');
  });

  it('shows up to 4 places when the amount has them', () => {
    expect(formatINR('0.5000')).toBe('₹0.50');
    expect(formatINR('0.0125')).toBe('₹0.0125');
    expect(formatINR('12')).toBe('₹12.00');
  });

  it('formats negatives and passes through what is not an amount', () => {
    expect(formatINR('-0.2500')).toMatch(/^-₹0\.25$/);
    expect(formatINR('')).toBe('—');
    expect(formatINR(null)).toBe('—');
    expect(formatINR('abc')).toBe('abc');
    expect(formatINR('1e5')).toBe('1e5');
  });
});

describe('signOf', () => {
  it('reads the sign without parsing', () => {
    expect(signOf('-0.01')).toBe(-1);
    expect(signOf('0.0000')).toBe(0);
    expect(signOf('-0.00')).toBe(0);
    expect(signOf('3')).toBe(1);
  });
});

describe('chartNumber', () => {
  it('turns an amount into a chart coordinate only, and anything else into 0', () => {
    expect(chartNumber('1234.50')).toBe(1234.5);
    expect(chartNumber('-0.25')).toBe(-0.25);
    expect(chartNumber('abc')).toBe(0);
    expect(chartNumber('')).toBe(0);
    expect(chartNumber(null)).toBe(0);
    expect(chartAxisINR(150000)).toBe('₹1.5L');
  });
});

describe('compareDecimal', () => {
  it('compares amounts exactly, whatever their places', () => {
    expect(compareDecimal('105.00', '100.00')).toBe(1);
    expect(compareDecimal('99.99', '100')).toBe(-1);
    expect(compareDecimal('100.0', '100.00')).toBe(0);
    expect(compareDecimal('0009.5', '9.50')).toBe(0);
    expect(compareDecimal('200000.01', '200000.00')).toBe(1);
    expect(compareDecimal('9007199254740993.25', '9007199254740993.24')).toBe(1); // beyond a double
    expect(compareDecimal('-1.00', '0.00')).toBe(-1);
    expect(compareDecimal('-2.00', '-1.50')).toBe(-1);
    expect(compareDecimal('0.00', '-0.00')).toBe(0);
  });

  it('gives null for anything that is not an amount', () => {
    expect(compareDecimal('abc', '1')).toBeNull();
    expect(compareDecimal('1', '')).toBeNull();
  });
});
