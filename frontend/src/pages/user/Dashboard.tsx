// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function Dashboard() {
  return <Placeholder title="Dashboard" description="Balance, calls and spend per day, top services." />;
}
