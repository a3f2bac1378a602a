import { useApiAction } from '../../../api/hooks';
import { MaskedPhone } from '../../../components/admin/MaskedPhone';

/**
 * A user's phone as operators see it: masked (138****8000) until the eye is pressed, which asks
 * the server for the whole number; every such look is a row in the operation log.
 */
export function PhoneReveal({ id, masked }: { id: number; masked: string }) {
  const reveal = useApiAction('/api/users/fetch/phone', { refreshes: [] });
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
