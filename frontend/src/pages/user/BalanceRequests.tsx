// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function BalanceRequests() {
  return <Placeholder title="Add balance" description="Request a top-up with a screenshot; your requests and their status." />;
}
