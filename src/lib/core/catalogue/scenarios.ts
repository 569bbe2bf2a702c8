/**
 * The named scenarios a profile starts with: sample values for the situations the contract
 * describes (a text, a media message, a disposition notification, several recipients). Each
 * gives only the values that make it what it is; every other name takes the catalogue's sample.
 */

/** A scenario preset: a name, what it shows, and the values it sets. */
export interface ScenarioPreset {
	name: string;
	description: string;
	values: Record<string, string | readonly string[]>;
}

/** The vendor part of the message content types is the platform's; this one is an example. */
const FILE_TRANSFER = 'application/x-acro-filetransfer+json';
const DISPOSITION = 'application/x-acro-disposition-notification';

export const SCENARIO_PRESETS: readonly ScenarioPreset[] = [
	{
		name: 'Text message',
		description: 'A text with quotes, &, an emoji and a newline to one recipient.',
		values: {
			content_type: 'text/plain',
			sms_body: 'Tom said "meet at 7 & bring snacks" \u{1F389}\nOK?'
		}
	},
	{
		name: 'Media message',
		description:
			'A media message: the body describes the file (an example shape; the contract does not show the media fields).',
		values: {
			content_type: FILE_TRANSFER,
			sms_body:
				'{"file":{"name":"beach photo.jpg","type":"image/jpeg","size":48213,"url":"https://media.example.com/f/7f3a9c21?sig=a+b/c="}}'
		}
	},
	{
		name: 'Disposition notification',
		description: 'A delivery and display notification request with its identifier.',
		values: {
			content_type: DISPOSITION,
			sms_body:
				'<imdn><message-id>Msg-7f3a9c21</message-id><delivery-notification><status><delivered/></status></delivery-notification></imdn>',
			disposition_notification: 'Msg-7f3a9c21:positive-delivery,display'
		}
	},
	{
		name: 'Two recipients',
		description: 'The same text to two recipients: Send Message is called once per recipient.',
		values: { sms_to: ['+14155550123', '+447700900456'] }
	}
];

/** The preset named so, if any. */
export function scenarioPreset(name: string): ScenarioPreset | undefined {
	return SCENARIO_PRESETS.find((p) => p.name === name);
}
