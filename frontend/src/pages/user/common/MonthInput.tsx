// A month picker whose value is the API's month, "YYYY-MM" ('' for none),
// up to the current month of the service's time zone.
import '@mantine/dates/styles.css'; // with the date pickers' chunk, not the first page's CSS
import { MonthPickerInput, type MonthPickerInputProps } from '@mantine/dates';
import { localDay } from '../../../lib/dates';

/** The current month of the service's zone, "2026-11". */
export function thisMonth(): string {
  return localDay().slice(0, 7);
}

type Props = Omit<MonthPickerInputProps, 'value' | 'onChange' | 'type'> & {
  value: string;
  onChange: (month: string) => void;
};

export function MonthInput({ value, onChange, ...rest }: Props) {
  return (
    <MonthPickerInput
      valueFormat="MMMM YYYY"
      maxDate={`${thisMonth()}-01`}
      {...rest}
      value={/^\d{4}-\d{2}$/.test(value) ? `${value}-01` : null}
      onChange={(v) => onChange(v ? v.slice(0, 7) : '')}
    />
  );
}
