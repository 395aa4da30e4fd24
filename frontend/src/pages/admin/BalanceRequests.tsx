// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function BalanceRequestQueue() {
  return <Placeholder title="Balance requests" description="The queue: screenshot preview, approve or reject with remarks." />;
}
