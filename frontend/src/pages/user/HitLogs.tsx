// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function HitLogs() {
  return <Placeholder title="Hit logs" description="Filters, pagination and CSV export." />;
}
