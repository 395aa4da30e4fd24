// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function AdminDashboard() {
  return <Placeholder title="Platform dashboard" description="Revenue, cost, margin and pending requests." />;
}
