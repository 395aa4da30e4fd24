// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function Users() {
  return <Placeholder title="Users" description="Search, activate/block, role and plan, balance adjustment." />;
}
