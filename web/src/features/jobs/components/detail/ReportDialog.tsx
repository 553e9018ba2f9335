import { useId, useState } from 'react';
import { FLAG_TYPES, type FlagType } from '../../../../../../shared/admin';
import { MSG } from '../../../../../../shared/messages';
import { ReasonDialog } from '../../../../lib/components/ReasonDialog';

const FLAG_LABEL: Record<FlagType, string> = {
  scam: 'Scam',
  spam: 'Spam',
  inappropriate: 'Inappropriate',
  off_platform_payment: 'Asks for payment outside the platform',
  other: 'Other',
};

/** A report's dialog (DECISIONS.md "How a job gets flagged"): what is wrong, and a reason; of a job or one of its questions. */
export function ReportDialog({ title, onReport, onCancel }: { title: string; onReport(flagType: FlagType, reason: string): Promise<void>; onCancel(): void }) {
  const [flagType, setFlagType] = useState<FlagType>('scam');
  const typeId = useId();
  return (
    <ReasonDialog title={title} label="Reason" confirmLabel="Send report" missingReason={MSG.flags.reasonRequired} onConfirm={(reason) => onReport(flagType, reason)} onCancel={onCancel}>
      <label htmlFor={typeId} className="field__label">
        What is wrong?
      </label>
      <select id={typeId} className="field__input" value={flagType} onChange={(event) => setFlagType(event.target.value as FlagType)}>
        {FLAG_TYPES.map((type) => (
          <option key={type} value={type}>
            {FLAG_LABEL[type]}
          </option>
        ))}
      </select>
    </ReasonDialog>
  );
}
