// The project form's template choice: one group per owner (built-in, this organization's, other organizations'
// public ones), and under the select whose the chosen template is and what it limits.
import { useOrganization } from '../../session/organization.js';
import { Field } from '../../ui/field.js';
import { publisher, templateOwner, templateOwnerGroups, templateOwnerLabel } from './template-owner.js';
import { type Template, templateLimits } from './templates-api.js';

export function TemplateSelect(props: {
  organizationId: string;
  templates: Template[];
  value: string;
  onChange: (templateId: string) => void;
}) {
  const { organizations } = useOrganization();
  const { organizationId, templates } = props;
  const chosen = templates.find((t) => t.id === props.value);
  const hint = chosen
    ? `${templateOwnerLabel(chosen, organizationId, organizations)}: ${templateLimits(chosen)}`
    : undefined;
  return (
    <Field label="Template" hint={hint}>
      {(p) => (
        <select {...p} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          <option value="">Blank (no quota, no key)</option>
          {templateOwnerGroups.map(({ owner, label }) => {
            const group = templates.filter((t) => templateOwner(t, organizationId) === owner);
            if (group.length === 0) return null;
            return (
              <optgroup key={owner} label={label}>
                {group.map((t) => {
                  const from = publisher(t, organizationId, organizations);
                  return (
                    <option key={t.id} value={t.id}>
                      {t.name}
                      {from ? `, from ${from}` : ''} — {templateLimits(t)}
                    </option>
                  );
                })}
              </optgroup>
            );
          })}
        </select>
      )}
    </Field>
  );
}
