/** The Big List of Naughty Strings: strings likely to break input handling. */
declare module 'big-list-of-naughty-strings' {
	const strings: string[];
	export default strings;
}
