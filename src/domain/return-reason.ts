// What returned mail says, as the post office and customers write it. A 반송 봉투 carries a
// stamped or ticked reason (우정사업본부's 반송사유: 수취인불명, 이사불명, 주소불명, 폐문부재,
// 수취거절, 사망, 기타); customers copy it into their lists in every spelling ("이사감",
// "수취인 부재", "주소 불충분", "반송(이사)"). The causes differ in what they say about the
// record: moved-away and unknown-recipient mean the business is no longer there, nobody-there
// means it may be and the letter can be tried again, a bad address means ours is wrong.

export const RETURN_CAUSES = ['moved', 'unknown_recipient', 'nobody_home', 'bad_address', 'refused', 'closed', 'deceased', 'other'] as const;
export type ReturnCause = (typeof RETURN_CAUSES)[number];

/**
 * What a cause says about the business: `gone` (moved, unknown at the address, closed, deceased:
 * the next letter comes back too), `absent` (nobody in, or refused: it is still there), or
 * neither (a bad address says the address is wrong, not the business; `other` says nothing).
 */
export function causeKind(cause: ReturnCause | null): 'gone' | 'absent' | null {
  if (cause === 'moved' || cause === 'unknown_recipient' || cause === 'closed' || cause === 'deceased') return 'gone';
  if (cause === 'nobody_home' || cause === 'refused') return 'absent';
  return null;
}

/** Folds a written reason for matching: NFKC, no spaces, brackets or separators, lower case. */
function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\s()[\]{}<>「」『』"'`.,:;/\\|_\-·~!?]/g, '');
}

// First match wins, so the more specific words come first: 이사불명 and 주소불명 before the
// bare 불명 of 수취인불명, 폐업 before the generic.
const CAUSE_WORDS: readonly (readonly [ReturnCause, readonly string[]])[] = [
  ['moved', ['이사', '전출', '이전', '퇴거', '이주', 'moved', 'relocated', 'forwardingexpired']],
  ['closed', ['폐업', '폐점', '휴업', '부도', '청산', 'closed', 'outofbusiness']],
  ['deceased', ['사망', 'deceased']],
  ['refused', ['거절', '거부', '반송요청', 'refused', 'rejected']],
  ['bad_address', ['주소불명', '주소불충분', '주소불완전', '주소오류', '주소틀림', '주소불일치', '주소없음', '번지없음', '번지불명', '번지불충분', '주소미상', '주소지없음', '없는주소', '주소확인불가', '배달불능지역', 'nosuchaddress', 'badaddress', 'insufficientaddress', 'addressunknown', 'undeliverableaddress']],
  ['nobody_home', ['폐문', '부재', '장기부재', '미수령', '보관기간경과', '보관기한경과', '보관기간만료', 'notathome', 'nobodyhome', 'unclaimed', 'nooneavailable']],
  ['unknown_recipient', ['수취인불명', '수취인미상', '수취인없음', '받는분없음', '받는사람없음', '수령인불명', '미거주', '불명', 'unknownrecipient', 'recipientunknown', 'notknown', 'attemptednotknown', 'noaddressee']],
  ['other', ['기타', '반송', 'other', 'returned', 'undeliverable', 'bounced']],
];

// Words that say the mail arrived: a column of outcomes often reads 배달완료 / 반송
const DELIVERED_WORDS = ['배달완료', '배달됨', '정상배달', '배송완료', '수령', '수취완료', '도착', '전달완료', '정상', 'delivered', 'ok', 'received'];

/**
 * The cause a written reason names, or null when it names none (empty, or a delivery). Text that
 * is a reason but matches no known cause is 'other': the customer said it came back.
 */
export function causeOf(reason: string | null | undefined): ReturnCause | null {
  if (!reason) return null;
  const f = fold(reason);
  if (f === '' || saysDelivered(f)) return null;
  for (const [cause, words] of CAUSE_WORDS) if (words.some((w) => f.includes(w))) return cause;
  return 'other';
}

function saysDelivered(folded: string): boolean {
  // 미수령 (not collected) holds 수령: a bounce word anywhere wins over a delivery word
  if (folded.startsWith('미') || folded.includes('미수령') || folded.includes('반송')) return false;
  return DELIVERED_WORDS.some((w) => folded === w || folded.startsWith(w));
}

const BOUNCED_TRUE = new Set(['true', 't', '1', 'y', 'yes', 'o', '예', '네', '반송', '반송됨', '반송됐음', '반송완료', 'bounced', 'returned', '실패', '배달실패', '미배달', '반려']);
const BOUNCED_FALSE = new Set(['false', 'f', '0', 'n', 'no', 'x', '아니오', '아니요', '정상', 'delivered', '성공']);

/**
 * An outcome cell as customers fill it in ("반송", "Y", "O", "배달완료", "false", 1), or null
 * when it says neither. A cell holding a return reason (이사불명) is a bounce.
 */
export function bouncedOf(cell: string | boolean | number | null | undefined): boolean | null {
  if (typeof cell === 'boolean') return cell;
  if (typeof cell === 'number') return cell === 1 ? true : cell === 0 ? false : null;
  if (cell == null) return null;
  const f = fold(cell);
  if (f === '') return null;
  if (BOUNCED_TRUE.has(f)) return true;
  if (BOUNCED_FALSE.has(f) || saysDelivered(f)) return false;
  const cause = causeOf(cell);
  return cause !== null && cause !== 'other' ? true : null;
}
