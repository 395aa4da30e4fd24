// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function UserDetail() {
  return <Placeholder title="User" description="One user: details, status, role, plan, balance adjustment." />;
}
