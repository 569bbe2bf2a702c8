import { describe, expect, it } from 'vitest';
import { buildRequests } from '../request';
import { getService } from './services';
import { sampleValues, starterBody } from './samples';
import { SCENARIO_PRESETS, scenarioPreset } from './scenarios';

describe('scenario presets', () => {
	const service = getService('sendMessage');

	it('name the four situations of Send Message', () => {
		expect(SCENARIO_PRESETS.map((p) => p.name)).toEqual([
			'Text message',
			'Media message',
			'Disposition notification',
			'Two recipients'
		]);
	});

	it.each(SCENARIO_PRESETS.map((p) => [p.name, p] as const))(
		'%s uses only names Send Message knows',
		(_, preset) => {
			const known = Object.keys(sampleValues(service));
			for (const key of Object.keys(preset.values)) expect(known).toContain(key);
		}
	);

	it.each(['json', 'xml'] as const)(
		'keep a %s body well-formed in every preset, one request per recipient',
		(format) => {
			for (const preset of SCENARIO_PRESETS) {
				const result = buildRequests({
					service,
					settings: {
						genericSmsSendUrl: 'https://sms.example.com/send',
						genericSmsSendPostData: starterBody(service, format),
						genericSmsSendContentType: `application/${format}`
					},
					values: { ...sampleValues(service), ...preset.values }
				});
				expect(result.issues.filter((i) => i.severity === 'error')).toEqual([]);
				const recipients = preset.values.sms_to;
				expect(result.requests).toHaveLength(Array.isArray(recipients) ? recipients.length : 1);
			}
		}
	);

	it('are found by name', () => {
		expect(scenarioPreset('Two recipients')?.values.sms_to).toHaveLength(2);
		expect(scenarioPreset('nope')).toBeUndefined();
	});
});
