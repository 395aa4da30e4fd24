// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function Transactions() {
  return <Placeholder title="Transactions" description="The ledger, with filters, pagination and CSV export." />;
}
