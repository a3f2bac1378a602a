import { useApiAction } from '../../../api/hooks';
import { MaskedPhone } from '../../../components/admin/MaskedPhone';
import { useGrants } from '../../../state/grants';

/**
 * A user's phone as operators see it: masked (138****8000) until the eye is pressed, which asks
 * the server for the whole number; every such look is a row in the operation log. No eye for an
 * operator without 查看完整手机号.
 */
export function PhoneReveal({ id, masked }: { id: number; masked: string }) {
  const reveal = useApiAction('/api/users/fetch/phone', { refreshes: [] });
  const { canCall } = useGrants();
  if (!canCall('/api/users/fetch/phone')) return <span className="user-phone">{masked}</span>;
  return (
    <MaskedPhone
      masked={masked}
      what="手机号"
      className="user-phone"
      eyeClassName="user-phone-eye"
      pending={reveal.isPending}
      reveal={(show) => reveal.mutate({ id }, { onSuccess: (answer) => show(answer.phone) })}
    />
  );
}
