// The third world's map: 89 시/군/구 weighted away from Seoul — 부산, 대구, 광주, 대전, 울산, the
// cities and 군 of 경남, 경북, 전남, 충북, a few 경기 new towns, 세종, 제주 — with some 15,000 buildings,
// emitted as lines of the official 도로명주소 한글 files (rnaddrkor: 24 columns; jibun_rnaddrkor: 14).
// Written for scripts/eval/third-world.ts, apart from the other worlds' maps.
//
// What the map keeps because a carrier or a list meets it:
// - each 동/읍/면 has a character (commercial core, old town, new town, industrial estate, coast,
//   farmland) that decides its buildings: towers and officetels in a core, villas and markets in an
//   old town, factories and 지식산업센터 in an estate, farm houses in a 면;
// - roads are a 시/군/구's 대로 running through several 동 (so the same name and different numbers in
//   each), local 로/길 named after the 동 or 리, and 번길/길 branching off them;
// - some roads were renamed (이전도로명주소 column), some 시/군/구 were reorganised (마산·진해 → 창원,
//   청원군 → 청주, 군위 → 대구, 연기 → 세종, 전라북도 → 전북특별자치도 …), and buildings in old towns
//   were demolished for redevelopment after lists copied them (absent from the files);
// - old 6-digit postal codes (one per 동/읍/면) are kept so lists can still carry them.

import { seededRandom } from '../../src/domain/seeded-random.ts';
// the draws themselves are plain arithmetic on the seeded stream, the same for every world
import { between as int, pick, type Rand, weighted } from './independent-names.ts';

export { int, pick, type Rand, weighted };
export type Kind = 'apt' | 'villa' | 'house' | 'shop' | 'office' | 'officetel' | 'kic' | 'factory' | 'market';
export type Area = 'metro' | 'city' | 'eup' | 'myeon';
/** c commercial core, r residential, n new town, i industrial, o old town, t coast/tourist, m mixed, f farmland */
export type District = 'c' | 'r' | 'n' | 'i' | 'o' | 't' | 'm' | 'f';

interface SidoInfo { code: string; short: readonly string[]; old?: { name: string; until: number } }
const SIDOS: Readonly<Record<string, SidoInfo>> = {
  서울특별시: { code: '11', short: ['서울', '서울시'] },
  부산광역시: { code: '26', short: ['부산', '부산시'] },
  대구광역시: { code: '27', short: ['대구', '대구시'] },
  광주광역시: { code: '29', short: ['광주', '광주시'] },
  대전광역시: { code: '30', short: ['대전', '대전시'] },
  울산광역시: { code: '31', short: ['울산', '울산시'] },
  세종특별자치시: { code: '36', short: ['세종', '세종시'] },
  경기도: { code: '41', short: ['경기'] },
  충청북도: { code: '43', short: ['충북'] },
  충청남도: { code: '44', short: ['충남'] },
  전라남도: { code: '46', short: ['전남'] },
  경상북도: { code: '47', short: ['경북'] },
  경상남도: { code: '48', short: ['경남'] },
  제주특별자치도: { code: '50', short: ['제주', '제주도'] },
  강원특별자치도: { code: '51', short: ['강원', '강원도'], old: { name: '강원도', until: 2023.45 } },
  전북특별자치도: { code: '52', short: ['전북'], old: { name: '전라북도', until: 2024.05 } },
};
// the 세무서 codes that begin registration numbers there (first three digits)
const TAX_OFFICES: Readonly<Record<string, readonly string[]>> = {
  11: ['119', '113'], 26: ['602', '603', '605', '606', '607', '617', '621', '623'], 27: ['502', '503', '504', '514', '516'],
  29: ['408', '409', '410', '419'], 30: ['305', '306', '314', '318'], 31: ['610', '620'], 36: ['320'],
  41: ['124', '125', '126', '131', '135', '137', '141', '142'], 43: ['301', '302', '303', '317'], 44: ['311', '312', '308'],
  46: ['411', '412', '415', '416', '417'], 47: ['505', '506', '507', '508', '510', '513', '515'],
  48: ['608', '609', '611', '612', '613', '615', '624', '626'], 50: ['616', '651'], 51: ['224', '226'], 52: ['401', '402'],
};

// 시도|시군구|우편번호 앞 3자리|옛 우편번호 앞 3자리|대로|동·읍(리,…)·면(리,…):성격|이전 행정구역@바뀐 해(! 읍·면만)
const MAP = `
부산광역시|해운대구|480|612|해운대로,센텀중앙로,좌동순환로|우동:c 중동:t 좌동:r 재송동:m 반여동:o 송정동:t
부산광역시|부산진구|471|614|중앙대로,가야대로,서면로|부전동:c 전포동:m 범천동:o 양정동:m 개금동:r 당감동:o 가야동:m
부산광역시|사하구|493|604|낙동대로,다대로,하신중앙로|하단동:m 괴정동:o 당리동:r 장림동:i 다대동:r 신평동:i
부산광역시|사상구|469|617|사상로,새벽로,학장로|괘법동:c 감전동:i 주례동:o 학장동:i 모라동:r 덕포동:o
부산광역시|강서구|467|618|낙동북로,명지국제로,녹산산업중로|명지동:n 대저1동:f 녹산동:i 화전동:i 지사동:i
부산광역시|동래구|477|607|중앙대로,충렬대로,온천장로|온천동:m 사직동:r 명륜동:c 수안동:o 안락동:m 명장동:o
부산광역시|남구|484|608|수영로,용호로,우암로|대연동:m 용호동:r 문현동:c 감만동:i 우암동:o
부산광역시|금정구|462|609|중앙대로,금강로,부곡로|장전동:m 구서동:r 부곡동:o 서동:o 금사동:i
부산광역시|중구|489|600|중앙대로,중구로,광복로|중앙동:c 광복동:c 부평동:o 남포동:t
부산광역시|기장군|460|619|기장대로,차성로,정관로|기장읍(대라리,동부리,청강리,내리):o 정관읍(매학리,용수리,모전리):n 일광읍(삼성리,이천리):t 장안읍(좌천리,반룡리):i 철마면(구칠리,와여리):f
대구광역시|중구|419|700|달구벌대로,국채보상로,동덕로|동인동1가:o 삼덕동2가:c 대봉동:m 남산동:o 동성로2가:c
대구광역시|수성구|420|706|달구벌대로,동대구로,들안로|범어동:c 만촌동:r 황금동:r 지산동:m 신매동:r 두산동:t
대구광역시|달서구|425|704|달구벌대로,월배로,성서공단로|월성동:r 상인동:m 이곡동:r 호산동:i 갈산동:i 두류동:o 본리동:m
대구광역시|북구|412|702|칠곡중앙대로,침산로,유통단지로|침산동:m 산격동:c 복현동:m 노원동3가:i 구암동:r 태전동:m
대구광역시|동구|410|701|아양로,팔공로,동촌로|신천동:m 신암동:o 방촌동:m 율하동:r 신서동:n
대구광역시|달성군|429|711|비슬로,달성군청로,구지로|화원읍(천내리,구라리,명곡리):m 다사읍(매곡리,서재리,세천리):r 논공읍(북리,남리,삼리리):i 가창면(대일리,용계리,삼산리):f 구지면(응암리,내리):i
대구광역시|군위군|391|716|군청로,군위로|군위읍(동부리,서부리,무성리):o 효령면(화계리,매곡리):f 부계면(창평리,동산리):f|경상북도 군위군@2023.5
광주광역시|서구|619|502|상무대로,무진대로,내방로|치평동:c 쌍촌동:m 화정동:o 풍암동:r 마륵동:m 금호동:r
광주광역시|북구|610|500|서암대로,설죽로,첨단과기로|용봉동:m 운암동:r 문흥동:r 일곡동:r 오룡동:i 중흥동:o
광주광역시|광산구|622|506|하남대로,임방울대로,무진대로|수완동:n 월계동:c 신가동:r 장덕동:i 안청동:i 송정동:o 우산동:m
광주광역시|남구|616|503|봉선로,대남대로,송암로|봉선동:r 주월동:m 진월동:r 월산동:o 송하동:i
광주광역시|동구|614|501|금남로,제봉로,필문대로|충장로2가:c 대인동:o 계림동:m 학동:o 산수동:o
대전광역시|서구|352|302|계룡로,둔산대로,한밭대로|둔산동:c 탄방동:c 갈마동:m 월평동:r 관저동:r 도마동:o 가수원동:m
대전광역시|유성구|341|305|대학로,유성대로,테크노중앙로|봉명동:c 궁동:m 관평동:i 용산동:i 지족동:n 노은동:r 탑립동:i
대전광역시|중구|348|301|중앙로,대종로,계백로|대흥동:c 은행동:c 선화동:o 문화동:m 유천동:o 태평동:r
대전광역시|대덕구|343|306|대전로,한밭대로,신탄진로|오정동:i 송촌동:r 대화동:i 신탄진동:o 문평동:i
울산광역시|남구|446|680|삼산로,번영로,문수로|삼산동:c 달동:m 신정동:r 무거동:r 야음동:o 여천동:i 매암동:i
울산광역시|중구|444|681|태화로,학성로,번영로|성남동:c 학성동:o 태화동:m 우정동:n 반구동:o 다운동:r
울산광역시|동구|440|682|봉수로,방어진순환도로,진성로|전하동:m 방어동:t 서부동:r 화정동:o 일산동:t
울산광역시|북구|442|683|산업로,오토밸리로,효문로|효문동:i 연암동:m 매곡동:i 천곡동:r 송정동:n 양정동:i
울산광역시|울주군|448|689|언양로,온산로,구영로|언양읍(동부리,서부리,남부리,어음리):o 온산읍(덕신리,화산리,학남리):i 범서읍(굴화리,구영리,천상리):r 삼남읍(교동리,신화리):m 두동면(봉계리,만화리):f 서생면(진하리,신암리):t
세종특별자치시||300|339|한누리대로,도움로,조치원로|보람동:n 도담동:n 종촌동:n 나성동:c 어진동:c 조치원읍(원리,신흥리,침산리,서창리):o 연기면(세종리,보통리):f 전의면(읍내리,신방리):i|충청남도 연기군@2012.5!
경기도|화성시|183|445|동탄대로,봉담과천로,향남로|반송동:n 청계동:c 오산동:n 영천동:i 향남읍(행정리,상신리,발안리):i 봉담읍(분천리,동화리,와우리):r 우정읍(조암리,화산리):f 마도면(석교리,청원리):i
경기도|김포시|100|415|김포대로,김포한강로,태장로|장기동:n 구래동:c 운양동:n 마산동:r 사우동:o 통진읍(마송리,서암리):i 양촌읍(학운리,누산리,양곡리):i 대곶면(대명리,초원지리):f
경기도|파주시|108|413|중앙로,경의로,문발로|목동동:n 야당동:c 와동동:n 금촌동:o 문산읍(문산리,선유리):o 문발동:i 탄현면(법흥리,성동리):i
경기도|평택시|177|450|평택로,경기대로,서동대로|비전동:r 세교동:r 고덕동:n 평택동:o 포승읍(원정리,만호리,도곡리):i 청북읍(어소리,옥길리):r 안중읍(현화리,송담리):m
경기도|시흥시|149|429|서해안로,마유로,정왕대로|정왕동:i 배곧동:n 은행동:m 대야동:o 장현동:n 월곶동:t
경기도|하남시|129|465|미사강변대로,검단산로,위례대로|망월동:n 풍산동:c 학암동:n 신장동:o 덕풍동:m
경기도|양주시|114|482|평화로,옥정로,부흥로|옥정동:n 덕정동:m 고읍동:r 광사동:i 백석읍(오산리,방성리,복지리):i 은현면(용암리,하패리):f
경기도|여주시|126|469|세종로,여흥로,신륵로|홍문동:o 교동:m 창동:c 가남읍(태평리,본두리):i 점동면(처리,당진리):f|경기도 여주군@2013.7
서울특별시|금천구|085|153|가산디지털1로,디지털로,벚꽃로|가산동:i 독산동:m 시흥동:o
충청북도|청주시 상당구|287|360|상당로,대성로,용암로|용암동:r 금천동:r 북문로2가:c 영동:o 남일면(효촌리,고은리):f 미원면(미원리,금관리):f
충청북도|청주시 흥덕구|285|361|직지대로,2순환로,가경로|복대동:c 가경동:r 봉명동:m 송정동:i 오송읍(봉산리,연제리,만수리):i
충청북도|청주시 서원구|286|361|사직대로,1순환로,산남로|사창동:c 분평동:r 산남동:r 모충동:o 수곡동:m 현도면(죽전리,중척리):f
충청북도|청주시 청원구|281|363|충청대로,오창대로,율량로|율량동:r 내덕동:o 사천동:m 오창읍(양청리,각리,구룡리,송대리):i 내수읍(내수리,형동리):m 북이면(석성리,신대리):f|충청북도 청원군@2014.5!
충청북도|충주시|274|380|충원대로,중원대로,국원대로|연수동:r 칠금동:m 호암동:n 성내동:o 용산동:m 주덕읍(신양리,화곡리):i 대소원면(영평리,본리):i 앙성면(용포리,본평리):f
충청북도|음성군|276|369|음성로,대금로,금일로|음성읍(읍내리,평곡리,동음리):o 금왕읍(무극리,오선리,내송리):i 대소면(오류리,삼호리,태생리):i 맹동면(두성리,본성리):n 감곡면(오향리,왕장리):f
충청북도|진천군|278|365|진천로,문화로,덕산로|진천읍(읍내리,교성리,신정리):o 덕산읍(용몽리,두촌리,구산리):n 이월면(송림리,중산리):i 광혜원면(광혜원리,실원리):i
충청남도|천안시 서북구|310|331|번영로,서부대로,불당대로|불당동:n 성정동:o 쌍용동:r 두정동:c 백석동:i 성거읍(송남리,신월리,저리):i 직산읍(군서리,판정리):i
충청남도|아산시|314|336|번영로,시민로,배방로|온천동:o 모종동:r 용화동:m 배방읍(장재리,공수리,휴대리):n 탕정면(명암리,갈산리,용두리):i 둔포면(석곡리,신항리):i
충청남도|당진시|317|343|당진중앙로,서해로,송악로|읍내동:o 원당동:m 수청동:n 송악읍(한진리,부곡리,고대리):i 합덕읍(운산리,대전리):f 석문면(삼봉리,통정리):i|충청남도 당진군@2012.0
전라남도|목포시|586|530|영산로,백년대로,하당로|상동:c 옥암동:n 용해동:r 산정동:o 대안동:o 연산동:i 죽교동:o
전라남도|여수시|596|550|여수산단로,좌수영로,시청로|학동:c 여서동:m 문수동:r 웅천동:n 중앙동:t 화치동:i 돌산읍(우두리,군내리,평사리):t 소라면(덕양리,복산리):f
전라남도|순천시|579|540|팔마로,중앙로,해룡로|연향동:c 조례동:r 왕지동:r 풍덕동:o 장천동:o 해룡면(신대리,상삼리,호두리):n 별량면(동송리,송산리):f
전라남도|광양시|577|545|광양대로,백운로,중마로|중동:c 광영동:r 금호동:r 태인동:i 광양읍(칠성리,인서리,덕례리,목성리):o 옥곡면(신금리,대죽리):i
전라남도|무안군|585|534|남악로,오룡로,무안로|삼향읍(남악리,임성리,왕산리):n 무안읍(성남리,성동리,교촌리):o 일로읍(의산리,월암리):f 청계면(도림리,청천리):f 망운면(목동리,송현리):f
전라남도|해남군|590|536|해남로,중앙1로|해남읍(구교리,성내리,해리,수성리):o 화원면(화봉리,주광리):f 송지면(산정리,어란리):t 삼산면(창리,충리):f
전라남도|나주시|582|520|빛가람로,나주로,영산로|빛가람동:n 송월동:o 성북동:o 금남동:o 남평읍(남석리,대교리):f 동수동:i
경상북도|포항시 남구|377|790|포스코대로,희망대로,냉천로|대잠동:m 상도동:c 이동:r 효자동:r 호동:i 장흥동:i 오천읍(문덕리,원리,세계리):r 구룡포읍(구룡포리,병포리):t 연일읍(생지리,중단리,유강리):r
경상북도|포항시 북구|376|791|포항로,삼호로,새천년대로|양덕동:r 장성동:r 두호동:t 죽도동:c 대흥동:o 흥해읍(마산리,옥성리,초곡리):n 청하면(미남리,청진리):f
경상북도|경주시|381|780|태종로,알천북로,화랑로|황성동:r 용강동:m 동천동:o 성건동:o 충효동:r 외동읍(입실리,냉천리,구어리):i 안강읍(양월리,산대리,사방리):m 건천읍(건천리,천포리):i 양남면(하서리,수렴리):t
경상북도|구미시|391|730|구미대로,1공단로,산호대로|송정동:c 원평동:o 인의동:r 공단동:i 임수동:i 옥계동:r 형곡동:r 산동읍(인덕리,봉산리,신당리):n 고아읍(원호리,문성리,관심리):r 선산읍(완전리,동부리):o
경상북도|경산시|385|712|대학로,경안로,삼풍로|중방동:o 사동:r 옥산동:r 계양동:m 압량읍(신대리,부적리,압량리):m 하양읍(금락리,서사리,동서리):o 진량읍(신상리,선화리,황제리):i 자인면(서부리,북사리):f
경상북도|안동시|367|760|경동로,퇴계로,서동문로|옥동:c 송현동:r 정하동:r 태화동:o 용상동:m 풍산읍(안교리,괴정리,계평리):i 와룡면(서지리,가구리):f 임하면(천전리,신덕리):f
경상북도|김천시|395|740|김천로,자산로,혁신로|평화동:c 율곡동:n 신음동:m 부곡동:r 아포읍(국사리,송천리,대신리):i 어모면(남산리,옥율리):f
경상북도|칠곡군|398|718|칠곡대로,석적로,왜관로|왜관읍(왜관리,석전리,아곡리,금산리):o 석적읍(중리,남율리,포남리):r 북삼읍(인평리,율리,오평리):r 지천면(신리,연화리):i 가산면(천평리,다부리):f
경상북도|청도군|383|714|청화로,청려로|화양읍(범곡리,서상리,동상리):o 청도읍(고수리,원정리,유호리):o 각남면(화리,예리):f 운문면(지촌리,신원리):t
경상북도|영덕군|364|766|영덕로,강구로|영덕읍(남석리,덕곡리,화개리):o 강구면(강구리,오포리,삼사리):t 영해면(성내리,괴시리):f
경상북도|울진군|363|767|울진중앙로,후포로|울진읍(읍내리,연지리,온양리):o 후포면(후포리,삼율리):t 죽변면(죽변리,후정리):t 평해읍(평해리,월송리):f
경상남도|창원시 의창구|511|641|창원대로,중앙대로,의창대로|팔용동:i 봉곡동:o 용호동:c 대원동:r 중동:n 북면(무동리,신촌리,지개리,감계리):n 동읍(용잠리,덕산리):i 대산면(가술리,제동리):f|경상남도 창원시@2010.5
경상남도|창원시 성산구|515|641|창원대로,중앙대로,원이대로|상남동:c 중앙동:c 성주동:r 웅남동:i 성산동:i 대방동:r 사파동:m|경상남도 창원시@2010.5
경상남도|창원시 마산합포구|512|631|해안대로,합포로,월영로|산호동:m 오동동:o 월영동:r 해운동:t 창동:o 진동면(진동리,고현리):t 구산면(구복리,심리):t|경상남도 마산시@2010.5
경상남도|창원시 마산회원구|513|630|양덕로,내서로,봉암공단로|합성동:c 양덕동:m 석전동:o 봉암동:i 회원동:o 구암동:r 내서읍(중리,호계리,삼계리):r|경상남도 마산시@2010.5
경상남도|창원시 진해구|516|645|진해대로,용원로,충장로|석동:r 풍호동:r 용원동:n 중앙동:o 웅동:i 경화동:o|경상남도 진해시@2010.5
경상남도|김해시|508|621|김해대로,가야로,해반천로|내동:c 삼계동:r 부원동:o 외동:m 대청동:n 관동동:n 율하동:n 진영읍(여래리,진영리,좌곤리,본산리):m 주촌면(내삼리,선지리,천곡리):i 한림면(명동리,장방리,금곡리):i 생림면(봉림리,나전리):f
경상남도|양산시|505|626|양산대로,양산중앙로,양주로|중부동:o 북부동:c 남부동:o 물금읍(범어리,가촌리,물금리,증산리):n 덕계동:m 산막동:i 상북면(석계리,소토리):i 하북면(순지리,삼감리):f
경상남도|진주시|527|660|진주대로,동진로,남강로|평거동:r 상대동:m 충무공동:n 상평동:i 칠암동:c 장대동:o 금산면(장사리,가방리):r 문산읍(삼곡리,소문리):m 집현면(신당리,덕오리):f
경상남도|거제시|532|656|거제대로,거제중앙로,옥포대첩로|고현동:c 장평동:r 옥포동:m 아주동:i 상동동:n 능포동:r 연초면(연사리,한내리):i 일운면(지세포리,와현리,구조라리):t 사등면(사곡리,성포리):i
경상남도|통영시|530|650|통영해안로,광도로,무전대로|무전동:c 북신동:m 정량동:t 도천동:o 광도면(죽림리,안정리,노산리):n 산양읍(미남리,풍화리):t 용남면(동달리,장평리):i
경상남도|사천시|525|664|사천대로,사남로,삼천포대교로|벌리동:o 동금동:t 사천읍(평화리,수석리,선인리):o 사남면(초전리,유천리,방지리):i 용현면(신복리,온정리):r
경상남도|밀양시|504|627|밀양대로,밀양중앙로,상설시장길|내이동:o 삼문동:r 가곡동:o 내일동:c 삼랑진읍(송지리,거족리):o 하남읍(수산리,귀명리):f 부북면(춘화리,퇴로리):i
경상남도|함안군|520|637|함마대로,함안대로|가야읍(말산리,산서리,도항리,검암리):o 칠원읍(용산리,구성리,예곡리):i 칠서면(대치리,이룡리):i 법수면(윤외리,강주리):f 군북면(덕대리,중암리):f
경상남도|하동군|523|667|섬진강대로,경서대로,화개로|하동읍(읍내리,광평리,비파리):o 화개면(탑리,운수리,덕은리):t 진교면(진교리,양포리):m 악양면(정서리,평사리):f
경상남도|남해군|524|668|남해대로,화전로|남해읍(북변리,서변리,남변리,아산리):o 삼동면(지족리,동천리,물건리):t 상주면(상주리,양아리):t 창선면(상신리,대벽리):f
전북특별자치도|전주시 완산구|550|560|팔달로,기린대로,홍산로|효자동3가:n 서신동:r 중화산동1가:m 중앙동3가:c 평화동2가:r
전북특별자치도|군산시|541|573|군산대로,조촌로,새만금북로|나운동:r 수송동:c 소룡동:i 오식도동:i 월명동:o 장미동:o 옥구읍(선제리,상평리):f
강원특별자치도|원주시|263|220|서원대로,남원로,무실로|단계동:c 무실동:r 반곡동:n 우산동:o 태장동:i 문막읍(동화리,건등리,포진리):i 지정면(가곡리,신평리):n
제주특별자치도|제주시|631|690|연북로,노연로,제주중앙로|연동:c 노형동:r 이도이동:m 일도이동:o 건입동:t 애월읍(애월리,고내리,곽지리):t 조천읍(함덕리,조천리,신촌리):t 한림읍(한림리,협재리,옹포리):t
제주특별자치도|서귀포시|635|697|중정로,일주동로,중산간동로|서귀동:c 동홍동:r 중문동:t 법환동:t 성산읍(고성리,성산리,온평리):t 대정읍(하모리,상모리):t 남원읍(남원리,위미리):f
`;

export interface Region {
  sido: string;
  sigungu: string;
  /** 5-digit 시군구 code */
  code: string;
  zip3: string;
  old3: string;
  taxOffice: string;
  majors: string[];
  /** the names a list copied before the reorganisation carries, and when it happened */
  former: { text: string; until: number; ruralOnly: boolean } | null;
  /** a 구/군 of a 광역시 (or 서울) */
  metro: boolean;
  /** what people call it for short: 해운대, 창원, 김해 */
  stem: string;
}

export interface Emd {
  region: Region;
  name: string;
  stem: string;
  area: Area;
  district: District;
  /** 3 digits of the 법정동 code after the 시군구 */
  code: string;
  ris: string[];
  /** the 6-digit code lists kept from before 2015 */
  oldZip: string;
}

export interface Building {
  id: string;
  emd: Emd;
  ri: string;
  road: string;
  /** a renamed road's former name and the year of the change */
  former: { name: string; until: number } | null;
  main: number;
  sub: number;
  mountain: boolean;
  lot: number;
  lotSub: number;
  /** related lots (jibun_rnaddrkor) */
  lots: { main: number; sub: number }[];
  zip: string;
  kind: Kind;
  name: string;
  floors: number;
  /** 동 of an apartment complex or a 지식산업센터, 가/나동 of a villa */
  blocks: number;
  perFloor: number;
  /** a management office or mail room that handles (and returns) the building's mail */
  managed: boolean;
  /** demolished after lists copied it: not in the files */
  gone: boolean;
  roadCode: string;
}

export interface Places {
  regions: Region[];
  emds: Emd[];
  buildings: Building[];
  byKind: Map<Kind, Building[]>;
  directoryLines: string[];
  relatedLines: string[];
  /** standing buildings by 시도|시군구|road|main|sub, and lots by 시도|시군구|동|리|산|main|sub */
  roadKeys: Set<string>;
  lotKeys: Set<string>;
}

const stemOf = (name: string): string => {
  const s = name.replace(/[0-9]+가$/, '').replace(/[0-9]*(동|읍|면|리)$/, '').replace(/로$/, '');
  // Hangul syllables are single UTF-16 units
  return s.length < 2 ? name.replace(/[0-9]+가$/, '') : s;
};

function parseMap(): { regions: Region[]; emds: Emd[] } {
  const regions: Region[] = [];
  const emds: Emd[] = [];
  const perSido = new Map<string, number>();
  for (const line of MAP.trim().split('\n')) {
    const [sido, sigungu, zip3, old3, majors, towns, former] = line.split('|') as [string, string, string, string, string, string, string?];
    const info = SIDOS[sido]!;
    const k = perSido.get(sido) ?? 0;
    perSido.set(sido, k + 1);
    const offices = TAX_OFFICES[info.code]!;
    const formerMatch = former ? /^(.+)@([0-9.]+)(!?)$/.exec(former) : null;
    const region: Region = {
      sido, sigungu, code: `${info.code}${110 + k * 20}`, zip3, old3, taxOffice: offices[k % offices.length]!, majors: majors.split(','),
      former: formerMatch ? { text: formerMatch[1]!, until: Number(formerMatch[2]), ruralOnly: formerMatch[3] === '!' } : null,
      metro: sido.endsWith('광역시') || sido === '서울특별시',
      // a 광역시's 구 goes by the city's name (부산지점, 대구상공회의소); elsewhere the 시/군's
      stem: sigungu === '' || sido.endsWith('광역시') || sido === '서울특별시' ? info.short[0]! : stemOf(sigungu.split(' ')[0]!.replace(/[시군]$/, '')),
    };
    regions.push(region);
    let eup = 0;
    let myeon = 0;
    towns.split(' ').forEach((token, i) => {
      const m = /^([^(:]+)(?:\(([^)]+)\))?:([a-z])$/.exec(token);
      if (!m) throw new Error(`bad town ${token}`);
      const name = m[1]!;
      const area: Area = name.endsWith('읍') ? 'eup' : name.endsWith('면') ? 'myeon' : region.metro ? 'metro' : 'city';
      const code = area === 'eup' ? 250 + eup++ : area === 'myeon' ? 310 + 10 * myeon++ : 101 + 3 * i;
      emds.push({
        region, name, stem: stemOf(name), area, district: m[3] as District, code: String(code), ris: m[2]?.split(',') ?? [],
        oldZip: `${old3}-${String(10 * (i + 1) + (i % 7)).padStart(3, '0')}`,
      });
    });
  }
  return { regions, emds };
}

// what each kind of 동 is built of
const KIND_MIX: Readonly<Record<District, Partial<Record<Kind, number>>>> = {
  c: { office: 22, shop: 34, officetel: 16, market: 5, villa: 7, apt: 5, house: 8, kic: 3 },
  r: { apt: 30, villa: 24, house: 14, shop: 24, officetel: 3, market: 2, office: 3 },
  n: { apt: 32, shop: 26, officetel: 12, office: 8, kic: 8, villa: 6, house: 8 },
  i: { factory: 50, kic: 14, shop: 16, office: 8, house: 7, villa: 5 },
  o: { house: 30, villa: 22, shop: 30, market: 9, apt: 5, office: 4 },
  t: { shop: 38, house: 34, apt: 8, villa: 10, market: 4, officetel: 6 },
  m: { apt: 14, villa: 22, house: 16, shop: 30, office: 8, officetel: 5, market: 3, kic: 1, factory: 1 },
  f: { house: 64, factory: 20, shop: 14, apt: 2 },
};
const SIZE: Readonly<Record<District, number>> = { c: 1.25, r: 1.2, n: 1.3, i: 1.15, o: 1.0, t: 0.75, m: 1.0, f: 0.5 };

export const STEMS = '대성 삼화 동아 한일 신라 태양 금강 우리 새한 대한 동양 성원 한성 영진 대영 세진 진성 해동 부경 영남 동남 남해 한빛 미래 다온 온누리 하나 대원 제일 신성 일신 동일 태화 명성 우성 화신 천일 광명 동진 남광 정우 청솔 보람 가온 누리 한결 새롬 백두 한라 금성 은하 보배 대운 성광 태평 국제 중앙 효성 삼원 대동 경일 흥국 동광 원진 상록 청운 솔빛 해오름 로얄 그랜드 센트럴 드림 골든 스카이'.split(' ');
const APT_NEW = '푸르지오 래미안 자이 아이파크 힐스테이트 더샵 롯데캐슬 e편한세상 한신더휴 SK뷰 센트레빌 두산위브 하늘채 서희스타힐스 화성파크드림 협성엘리시안 한양수자인 우방아이유쉘 호반베르디움 중흥S클래스 부영'.split(' ');
const APT_OLD = '주공 현대 삼익 한신 대우 우성 동아 롯데 대림 경남 한진 청구 보성 우방 화성 영남 태영 럭키 삼환 금호'.split(' ');
const SUFFIX: Partial<Record<Kind, readonly string[]>> = {
  villa: ['빌라', '맨션', '하이츠', '빌', '타운', '연립', '캐슬', '하우스'],
  shop: ['빌딩', '프라자', '상가', '타워', '스퀘어', '메디컬센터'],
  office: ['빌딩', '타워', '센터', '오피스', '비즈니스센터', '빌딩'],
  officetel: ['오피스텔', '시티', '스위트', '리치빌', '타워', '센트럴'],
  kic: ['테크노타워', '지식산업센터', '비즈타워', 'IT타워', '테크노밸리', '하이테크센터', '스마트타워', '디지털타워'],
  factory: ['정밀', '산업', '금속', '기계', '화학', '물류센터'],
  market: ['시장', '종합시장', '전통시장', '상가', '새시장', '중앙시장'],
};

function buildingName(kind: Kind, e: Emd, r: Rand): string {
  const stem = pick(r, STEMS);
  switch (kind) {
    case 'apt': {
      const u = r();
      if (u < 0.5 || e.district === 'n') return `${e.stem}${pick(r, APT_NEW)}${r() < 0.3 ? `${int(r, 1, 5)}차` : ''}`;
      if (u < 0.85) return `${e.stem}${pick(r, APT_OLD)}${r() < 0.4 ? `${int(r, 1, 3)}차` : ''}아파트`;
      return `${e.stem}주공${int(r, 1, 9)}단지`;
    }
    case 'house':
      return '';
    case 'villa':
      return r() < 0.65 ? `${pick(r, [...STEMS, e.stem])}${pick(r, SUFFIX.villa!)}` : '';
    case 'shop':
      return r() < 0.4 ? `${r() < 0.3 ? e.stem : stem}${pick(r, SUFFIX.shop!)}` : '';
    case 'factory':
      return r() < 0.3 ? `${stem}${pick(r, SUFFIX.factory!)}` : '';
    case 'market':
      return r() < 0.7 ? `${e.stem}${pick(r, SUFFIX.market!)}` : `${stem}종합상가`;
    case 'office':
    case 'officetel':
    case 'kic':
      return `${r() < 0.25 ? e.region.stem : stem}${pick(r, SUFFIX[kind]!)}`;
  }
  return '';
}

/** floors, blocks and units per floor: what a unit number can be */
function shapeOf(kind: Kind, area: Area, r: Rand): { floors: number; blocks: number; perFloor: number; managed: boolean } {
  const rural = area === 'eup' || area === 'myeon';
  switch (kind) {
    case 'apt': return { floors: rural ? int(r, 5, 15) : int(r, 10, 30), blocks: rural ? int(r, 1, 4) : int(r, 3, 18), perFloor: int(r, 2, 4), managed: r() < 0.35 };
    case 'villa': return { floors: int(r, 3, 5), blocks: r() < 0.15 ? 2 : 1, perFloor: int(r, 2, 4), managed: false };
    case 'house': return { floors: int(r, 1, 3), blocks: 1, perFloor: 1, managed: false };
    case 'shop': return { floors: int(r, 1, 6), blocks: 1, perFloor: int(r, 1, 4), managed: false };
    case 'office': { const floors = int(r, 4, 25); return { floors, blocks: 1, perFloor: int(r, 2, 10), managed: floors >= 8 && r() < 0.8 }; }
    case 'officetel': return { floors: int(r, 8, 25), blocks: 1, perFloor: int(r, 8, 30), managed: r() < 0.6 };
    case 'kic': return { floors: int(r, 6, 15), blocks: r() < 0.3 ? int(r, 2, 3) : 1, perFloor: int(r, 15, 40), managed: r() < 0.75 };
    case 'factory': return { floors: int(r, 1, 3), blocks: 1, perFloor: 1, managed: false };
    case 'market': return { floors: int(r, 1, 3), blocks: 1, perFloor: int(r, 20, 120), managed: r() < 0.4 };
  }
  return { floors: 1, blocks: 1, perFloor: 1, managed: false };
}

/** the kinds a building on this kind of road in this place can be */
function kindMix(e: Emd, road: 'major' | 'local' | 'branch'): Partial<Record<Kind, number>> {
  const base = { ...KIND_MIX[e.area === 'myeon' && e.district !== 't' ? 'f' : e.district] };
  for (const k of Object.keys(base) as Kind[]) {
    let w = base[k]!;
    if (road === 'major' && ['office', 'shop', 'officetel', 'apt'].includes(k)) w *= 1.8;
    if (road === 'major' && ['house', 'villa'].includes(k)) w *= 0.5;
    if (road === 'branch' && ['house', 'villa'].includes(k)) w *= 1.6;
    if (road === 'branch' && ['office', 'officetel'].includes(k)) w *= 0.5;
    // towns have few towers
    if (e.area === 'eup' && ['office', 'officetel', 'kic'].includes(k)) w *= 0.2;
    base[k] = w;
  }
  return base;
}

const OLD_ROAD_WORDS = ['중앙', '시장', '신', '번영', '새마을', '역전', '동부', '서부', '문화', '공단'];

/** Road names of one 동/읍/면: its own 로/길 and branches off them or off the 대로. */
class RoadNamer {
  private readonly used: Set<string>;
  constructor(used: Set<string>) {
    this.used = used;
  }
  private take(candidates: string[], fallback: () => string): string {
    const name = candidates.find((c) => !this.used.has(c)) ?? fallback();
    this.used.add(name);
    return name;
  }
  local(e: Emd, ri: string, r: Rand): string {
    const k = int(r, 1, 9);
    if (ri !== '' && r() < 0.6) {
      const s = stemOf(ri);
      return this.take([`${s}길`, `${s}안길`, `${s}${k}길`, `${s}${k + 1}길`], () => `${s}${int(r, 10, 99)}길`);
    }
    const words = e.area === 'eup' ? ['로', '중앙로', '시장길', '역로', '순환로'] : ['로', '중앙로', '시장로', '공원로', '천로', '역로', '동로', '서로', '남로', '북로'];
    const first = pick(r, words);
    return this.take([`${e.stem}${first}`, `${e.stem}${k}로`, ...words.map((w) => `${e.stem}${w}`)], () => `${e.stem}${int(r, 10, 99)}로`);
  }
  branch(parent: string, numbered: boolean, r: Rand): string {
    const n = numbered ? int(r, 1, 400) : int(r, 1, 80);
    const name = (x: number) => (numbered ? `${parent}${x}번길` : `${parent}${x}길`);
    return this.take([name(n), name(n + 1), name(n + 3)], () => name(n + int(r, 5, 400)));
  }
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

function addressLine(b: Building, r: Rand): string {
  const e = b.emd;
  const g = e.region;
  const legal = `${g.code}${e.code}${e.ris.length > 0 ? pad(21 + Math.max(0, e.ris.indexOf(b.ri)), 2) : '00'}`;
  const numText = `${b.main}${b.sub > 0 ? `-${b.sub}` : ''}`;
  const rural = e.area === 'eup' || e.area === 'myeon';
  const formerText = b.former ? [g.sido, g.sigungu, rural ? e.name : '', b.former.name, numText].filter(Boolean).join(' ') : '';
  const effective = b.former ? `${Math.floor(b.former.until)}0${int(r, 1, 9)}${pad(int(r, 1, 28), 2)}` : `${int(r, 2011, 2024)}${pad(int(r, 1, 12), 2)}${pad(int(r, 1, 28), 2)}`;
  const adminName = !rural && r() < 0.3 ? `${e.name.replace(/동$/, '')}${int(r, 1, 3)}동` : e.name;
  const register = b.kind === 'apt' && !b.name.endsWith('아파트') && r() < 0.3 ? `${b.name}아파트` : b.name;
  return [
    b.id, legal, g.sido, g.sigungu, e.name, b.ri, b.mountain ? '1' : '0', String(b.lot), String(b.lotSub), b.roadCode, b.road, '0',
    String(b.main), String(b.sub), `${g.code}${e.code}00`, adminName, b.zip, formerText, effective,
    b.kind === 'apt' || b.kind === 'villa' ? '1' : '0', '', register, b.name, '',
  ].join('|');
}

function relatedLine(b: Building, lot: { main: number; sub: number }): string {
  const e = b.emd;
  const legal = `${e.region.code}${e.code}${e.ris.length > 0 ? pad(21 + Math.max(0, e.ris.indexOf(b.ri)), 2) : '00'}`;
  return [b.id, legal, e.region.sido, e.region.sigungu, e.name, b.ri, '0', String(lot.main), String(lot.sub), b.roadCode, '0', String(b.main), String(b.sub), ''].join('|');
}

/** a 동/읍/면's share of the buildings */
const weightOf = (e: Emd): number => SIZE[e.district] * (e.area === 'myeon' ? 0.55 : e.area === 'eup' ? 0.9 : 1);

/** The map for a seed: regions, their buildings, and the directory files' lines. */
export function buildPlaces(seed: number, target = 15_500): Places {
  const r = seededRandom(seed * 7919 + 3);
  const { regions, emds } = parseMap();
  const total = emds.reduce((s, e) => s + weightOf(e), 0);
  const buildings: Building[] = [];
  const roadKeys = new Set<string>();
  const lotKeys = new Set<string>();
  let serial = 0;
  for (const g of regions) {
    const used = new Set<string>(g.majors);
    const namer = new RoadNamer(used);
    const roadCodes = new Map<string, string>();
    const codeOf = (road: string): string => {
      if (!roadCodes.has(road)) roadCodes.set(road, `${g.code}${pad(3_000_000 + roadCodes.size * 7 + 1, 7)}`);
      return roadCodes.get(road)!;
    };
    // a 번길 region (부산, 경남, 울산, 경북 mostly) or a 길 one
    const numbered = /부산|경상|울산/.test(g.sido) ? 0.85 : 0.5;
    let block = 0;
    const here = emds.filter((e) => e.region === g);
    here.forEach((e, ei) => {
      const count = Math.max(25, Math.round((target * weightOf(e)) / total));
      const locals: string[] = [];
      const numbers = new Set<string>();
      let lotCursor = int(r, 1, 300);
      let made = 0;
      while (made < count) {
        const u = r();
        const ri = e.ris.length > 0 ? pick(r, e.ris) : '';
        let road: string;
        let start: number;
        let n: number;
        let type: 'major' | 'local' | 'branch';
        if (u < 0.25) {
          road = pick(r, g.majors);
          // each 동 holds its own stretch of a 대로
          start = ei * 160 + int(r, 1, 120);
          n = int(r, 3, 10);
          type = 'major';
        } else if (u < 0.55 || locals.length === 0) {
          road = namer.local(e, ri, r);
          locals.push(road);
          start = int(r, 1, 60);
          n = int(r, 4, 12);
          type = 'local';
        } else {
          road = namer.branch(pick(r, [...locals, ...g.majors]), r() < numbered, r);
          start = int(r, 1, 15);
          n = int(r, 3, 9);
          type = 'branch';
        }
        // a few local roads were renamed after lists copied them
        const former = type === 'local' && r() < 0.06 ? { name: `${e.stem}${pick(r, OLD_ROAD_WORDS)}${road.endsWith('길') ? '길' : '로'}`, until: 2015 + r() * 9.5 } : null;
        const zip = `${g.zip3}${pad(block++ % 100, 2)}`;
        let main = start;
        for (let j = 0; j < n && made < count; j++) {
          main += int(r, 1, 5);
          const sub = r() < 0.12 ? int(r, 1, 20) : 0;
          const key = `${road}|${main}|${sub}`;
          if (numbers.has(key)) continue;
          numbers.add(key);
          const kind = weighted(r, kindMix(e, type));
          lotCursor += int(r, 1, 15);
          const lots = Array.from({ length: kind === 'apt' && r() < 0.6 ? int(r, 1, 3) : (kind === 'factory' || kind === 'market') && r() < 0.35 ? int(r, 1, 2) : r() < 0.05 ? 1 : 0 }, () => ({ main: lotCursor + int(r, 1, 6), sub: r() < 0.5 ? int(r, 1, 30) : 0 }));
          lotCursor += lots.length * 6;
          const b: Building = {
            id: '', emd: e, ri, road, former, main, sub, mountain: e.area === 'myeon' && kind === 'house' && r() < 0.05, lot: lotCursor, lotSub: r() < 0.4 ? int(r, 1, 40) : 0, lots,
            zip, kind, name: buildingName(kind, e, r), ...shapeOf(kind, e.area, r),
            // redevelopment takes old towns' houses, villas and markets
            gone: r() < (e.district === 'o' && ['house', 'villa', 'market', 'shop'].includes(kind) ? 0.07 : 0.008),
            roadCode: codeOf(road),
          };
          b.id = `${g.code}${e.code}00${b.mountain ? '1' : '0'}${pad(b.lot % 10_000, 4)}${pad(b.lotSub, 4)}${pad(++serial, 6)}`;
          buildings.push(b);
          made++;
        }
      }
    });
  }
  const byKind = new Map<Kind, Building[]>();
  const directoryLines: string[] = [];
  const relatedLines: string[] = [];
  for (const b of buildings) {
    if (!byKind.has(b.kind)) byKind.set(b.kind, []);
    byKind.get(b.kind)!.push(b);
    if (b.gone) continue;
    const g = b.emd.region;
    roadKeys.add(`${g.sido}|${g.sigungu}|${b.road}|${b.main}|${b.sub}`);
    for (const l of [{ main: b.lot, sub: b.lotSub }, ...b.lots]) lotKeys.add(`${g.sido}|${g.sigungu}|${b.emd.name}|${b.ri}|${b.mountain && l.main === b.lot ? 1 : 0}|${l.main}|${l.sub}`);
    directoryLines.push(addressLine(b, r));
    for (const l of b.lots) relatedLines.push(relatedLine(b, l));
  }
  return { regions, emds, buildings, byKind, directoryLines, relatedLines, roadKeys, lotKeys };
}


// ---- how lists write these addresses ----

/** A business's unit in its building: as written in full, in shorthand, and half of it. */
export interface Unit { full: string; short: string; partial: string }

export function unitIn(b: Building, r: Rand): Unit | null {
  const floor = int(r, 1, b.floors);
  const k = int(r, 1, b.perFloor);
  switch (b.kind) {
    case 'apt': {
      const ho = `${floor}${pad(k, 2)}`;
      if (b.blocks === 1) return { full: `${ho}호`, short: ho, partial: '' };
      const dong = `${100 + int(r, 1, b.blocks)}`;
      // 호 alone exists in every 동; 동 alone leaves a hundred doors
      return { full: `${dong}동 ${ho}호`, short: r() < 0.5 ? `${dong}-${ho}` : `${dong}동${ho}호`, partial: r() < 0.6 ? `${ho}호` : `${dong}동` };
    }
    case 'villa': {
      const ho = `${Math.min(floor, 5)}0${k}`;
      const dong = b.blocks > 1 ? pick(r, ['가동 ', '나동 ']) : '';
      return { full: `${dong}${ho}호`, short: `${dong}${ho}`, partial: dong ? `${ho}호` : '' };
    }
    case 'officetel': {
      const ho = `${floor}${pad(k, 2)}`;
      return { full: `${ho}호`, short: r() < 0.5 ? `${floor}층 ${ho}호` : ho, partial: `${floor}층` };
    }
    case 'kic': {
      const ho = `${floor}${pad(k, 2)}`;
      const dong = b.blocks > 1 ? 'ABC'[int(r, 0, b.blocks - 1)]! : '';
      return dong ? { full: `${dong}동 ${ho}호`, short: `${dong}-${ho}`, partial: `${ho}호` } : { full: `${ho}호`, short: `${floor}층 ${ho}호`, partial: `${floor}층` };
    }
    case 'office': {
      const u = r();
      return { full: u < 0.6 ? `${floor}층` : u < 0.85 ? `${floor}층 ${floor}0${Math.min(k, 9)}호` : `${floor}0${Math.min(k, 9)}호`, short: `${floor}F`, partial: '' };
    }
    case 'shop': {
      // most shops are on the ground floor
      const f = r() < 0.65 ? 1 : floor;
      const u = r();
      const full = u < 0.5 ? `${f}층` : u < 0.8 ? `${f}0${k}호` : `${f}층 ${f}0${k}호`;
      return { full, short: full, partial: '' };
    }
    case 'market': {
      const n = int(r, 1, b.perFloor);
      return r() < 0.3 ? { full: `${pick(r, ['가', '나', 'A', 'B'])}동 ${n}호`, short: `${n}호`, partial: `${n}호` } : { full: `${n}호`, short: `${n}번`, partial: '' };
    }
    case 'house':
      return b.floors > 1 && r() < 0.4 ? { full: `${int(r, 1, b.floors)}층`, short: `${floor}층`, partial: '' } : null;
    case 'factory':
      return null;
  }
  return null;
}

/** How a list writes addresses: the share of each habit and fault. */
export interface Style {
  jibun: number;
  sidoShort: number;
  sidoNone: number;
  sigunguDrop: number;
  /** '창원시' or '의창구' alone for '창원시 의창구' */
  sigunguPart: number;
  /** a list copied before a renaming keeps the old name this often */
  keepOld: number;
  /** old names written out of habit whatever the list's age (마산시, 전라북도) */
  habitOld: number;
  roadTypo: number;
  noNumber: number;
  wrongNumber: number;
  unitDrop: number;
  unitPartial: number;
  unitShort: number;
  zip5: number;
  zip6: number;
  zipWrong: number;
  /** the building's name written at all */
  named: number;
  /** the official (동, 건물명) reference in parentheses */
  paren: number;
  noise: number;
}

/** An address as a list wrote it, and what was done to it. */
export interface Written {
  text: string;
  form: 'road' | 'jibun';
  region: 'full' | 'short' | 'noSido' | 'noSigungu' | 'old';
  roadName: 'ok' | 'typo' | 'former' | '-';
  /** wrongOther: the wrong number is another building's; wrongAbsent: no building has it */
  number: 'ok' | 'missing' | 'wrongAbsent' | 'wrongOther';
  named: boolean;
  unit: 'na' | 'given' | 'missing' | 'partial';
  zip: 'none' | '5' | '6' | 'wrong';
}

const shortSido = (name: string): string => SIDOS[name]?.short[0] ?? name.replace(/(상|청|라)(남|북)도$/, '$2');

function regionText(b: Building, s: Style, r: Rand, captured: number): { text: string; tag: Written['region'] } {
  const e = b.emd;
  const g = e.region;
  const info = SIDOS[g.sido]!;
  const rural = e.area === 'eup' || e.area === 'myeon';
  const f = g.former && (!g.former.ruralOnly || rural) ? g.former : null;
  if (f && ((captured < f.until && r() < s.keepOld) || r() < s.habitOld)) {
    const [fs, ...rest] = f.text.split(' ');
    return { text: [r() < s.sidoShort ? shortSido(fs!) : fs, ...rest].join(' '), tag: 'old' };
  }
  let tag: Written['region'] = 'full';
  let sido = g.sido;
  const u = r();
  if (info.old && ((captured < info.old.until && r() < s.keepOld) || r() < s.habitOld)) {
    sido = info.old.name;
    tag = 'old';
  } else if (u < s.sidoNone) {
    sido = '';
    tag = 'noSido';
  } else if (u < s.sidoNone + s.sidoShort) {
    sido = pick(r, info.short);
    tag = 'short';
  }
  let sigungu = g.sigungu;
  if (sigungu !== '' && sido !== '' && r() < s.sigunguDrop) {
    sigungu = '';
    tag = 'noSigungu';
  } else if (sigungu.includes(' ') && r() < s.sigunguPart) sigungu = pick(r, sigungu.split(' '));
  return { text: [sido, sigungu].filter(Boolean).join(' '), tag };
}

const VOWEL_SLIPS: Readonly<Record<number, number>> = { 1: 5, 5: 1, 3: 7, 7: 3, 4: 8, 8: 4, 6: 12, 12: 6, 13: 17, 17: 13 };

/** A road name mistyped the way people do: ㅐ/ㅔ, a 받침 dropped or confused, a syllable left out or swapped. */
export function typo(name: string, r: Rand): string {
  const cs = name.split('');
  for (let tries = 0; tries < 12; tries++) {
    const i = int(r, 0, Math.max(0, cs.length - 2));
    const c = cs[i]!.charCodeAt(0) - 0xac00;
    if (c < 0 || c > 11171) continue;
    const [l, v, t] = [Math.floor(c / 588), Math.floor((c % 588) / 28), c % 28];
    const out = [...cs];
    const u = r();
    if (u < 0.35) {
      const w = VOWEL_SLIPS[v];
      if (w === undefined) continue;
      out[i] = String.fromCharCode(0xac00 + (l * 21 + w) * 28 + t);
    } else if (u < 0.55) {
      out[i] = String.fromCharCode(0xac00 + (l * 21 + v) * 28 + (t === 4 ? 21 : t === 21 ? 4 : 0));
    } else if (u < 0.75 && cs.length > 3) out.splice(i, 1);
    else if (i + 2 < cs.length) [out[i], out[i + 1]] = [out[i + 1]!, out[i]!];
    else continue;
    const text = out.join('');
    if (text !== name) return text;
  }
  return name.endsWith('번길') ? name.replace(/번길$/, '길') : name.replace(/(로|길)$/, (m) => (m === '로' ? '길' : '로'));
}

function wrongNumber(n: number, r: Rand): number {
  for (;;) {
    const s = String(n);
    const u = r();
    let w: number;
    if (u < 0.3 && s.length >= 2) w = Number(s[1]! + s[0]! + s.slice(2));
    else if (u < 0.55) w = n + pick(r, [-2, 2, -1, 1, 10, -10]);
    else if (u < 0.75 && s.length >= 2) w = Number(s.slice(0, -1));
    else w = Number(s + String(int(r, 0, 9)));
    if (w > 0 && w !== n) return w;
  }
}

function zipText(b: Building, s: Style, r: Rand): { text: string; tag: Written['zip'] } {
  const u = r();
  if (u < s.zip5) {
    const wrong = r() < s.zipWrong;
    // a neighbouring delivery block, or two digits swapped
    const z = wrong ? (r() < 0.5 ? `${b.zip.slice(0, 3)}${b.zip[4]}${b.zip[3]}` : `${b.zip.slice(0, 3)}${pad((Number(b.zip.slice(3)) + int(r, 1, 30)) % 100, 2)}`) : b.zip;
    const tag = z === b.zip ? '5' : 'wrong';
    return { text: pick(r, [`(${z})`, `[${z}]`, z, `우)${z}`]), tag };
  }
  if (u < s.zip5 + s.zip6) {
    const z = b.emd.oldZip;
    return { text: pick(r, [`(${z})`, z, z.replace('-', ''), `우${z}`]), tag: '6' };
  }
  return { text: '', tag: 'none' };
}

/** The address of a business in building b as a list with style s, copied in year `captured`, writes it. */
export function writeAddress(p: Places, b: Building, unit: Unit | null, s: Style, r: Rand, captured: number): Written {
  const e = b.emd;
  const g = e.region;
  const rural = e.area === 'eup' || e.area === 'myeon';
  const region = regionText(b, s, r, captured);
  const form: Written['form'] = r() < s.jibun ? 'jibun' : 'road';
  const named = b.name !== '' && r() < s.named;
  let roadName: Written['roadName'] = '-';
  let number: Written['number'] = 'ok';
  let body: string;
  const u = r();
  if (form === 'road') {
    let road = b.road;
    roadName = 'ok';
    if (b.former && captured < b.former.until && r() < s.keepOld) {
      road = b.former.name;
      roadName = 'former';
    }
    if (r() < s.roadTypo) {
      road = typo(road, r);
      roadName = 'typo';
    }
    let num = `${b.main}${b.sub > 0 ? `-${b.sub}` : ''}`;
    if (u < s.noNumber) {
      num = '';
      number = 'missing';
    } else if (u < s.noNumber + s.wrongNumber) {
      const w = wrongNumber(b.main, r);
      const sub = b.sub > 0 && r() < 0.7 ? b.sub : 0;
      num = `${w}${sub > 0 ? `-${sub}` : ''}`;
      number = p.roadKeys.has(`${g.sido}|${g.sigungu}|${b.road}|${w}|${sub}`) ? 'wrongOther' : 'wrongAbsent';
    }
    if (num !== '' && r() < s.noise * 0.3) num += '번지';
    body = [rural && r() > s.noise ? e.name : '', road, num].filter(Boolean).join(' ');
  } else {
    let lot = `${b.mountain ? '산' : ''}${b.lot}${b.lotSub > 0 ? `-${b.lotSub}` : ''}`;
    // new towns were re-parcelled: an old list's lot is one the files no longer have
    if (e.district === 'n' && captured < 2019 && r() < 0.5) {
      lot = `${int(r, 100, 999)}-${int(r, 1, 9)}`;
      number = 'wrongAbsent';
    } else if (u < s.noNumber) {
      lot = '';
      number = 'missing';
    } else if (u < s.noNumber + s.wrongNumber) {
      const w = wrongNumber(b.lot, r);
      lot = `${w}${b.lotSub > 0 ? `-${b.lotSub}` : ''}`;
      number = p.lotKeys.has(`${g.sido}|${g.sigungu}|${e.name}|${b.ri}|0|${w}|${b.lotSub}`) ? 'wrongOther' : 'wrongAbsent';
    }
    if (lot !== '' && r() < s.noise * 2) lot += '번지';
    if (lot !== '' && b.lots.length > 0 && r() < 0.35) lot += ` 외 ${b.lots.length}필지`;
    body = [e.name, b.ri, lot].filter(Boolean).join(' ');
  }
  let unitTag: Written['unit'] = unit ? 'given' : 'na';
  let unitText = '';
  if (unit) {
    const v = r();
    if (v < s.unitDrop) unitTag = 'missing';
    else if (v < s.unitDrop + s.unitPartial && unit.partial !== '') {
      unitTag = 'partial';
      unitText = unit.partial;
    } else unitText = r() < s.unitShort ? unit.short : unit.full;
  }
  // the official form puts the 동 and the building's name in parentheses at the end
  const paren = form === 'road' && !rural && r() < s.paren;
  const tail = paren ? ` (${e.name}${named ? `, ${b.name}` : ''})` : '';
  const inline = named && !paren ? b.name : '';
  const detail = [inline, unitText].filter(Boolean).join(' ');
  let text = `${region.text} ${body}${detail ? (form === 'road' && r() < 0.6 ? ', ' : ' ') + detail : ''}${tail}`.trim();
  const zip = zipText(b, s, r);
  if (zip.text) text = r() < 0.7 ? `${zip.text} ${text}` : `${text} ${zip.text}`;
  if (r() < s.noise) text = noisy(text, region.text, r);
  return { text, form, region: region.tag, roadName, number, named, unit: unitTag, zip: zip.tag };
}

/** Spacing as typed by hand: doubled, glued, trailing, a comma without its space. */
function noisy(text: string, region: string, r: Rand): string {
  const u = r();
  if (u < 0.35) {
    const spaces = [...text.matchAll(/ /g)].map((m) => m.index);
    const at = spaces.length > 0 ? pick(r, spaces) : -1;
    return at < 0 ? text : `${text.slice(0, at)}  ${text.slice(at + 1)}`;
  }
  if (u < 0.6 && region.includes(' ')) return text.replace(region, region.replace(' ', ''));
  if (u < 0.8) return text.replace(', ', ',');
  return `${text} `;
}
