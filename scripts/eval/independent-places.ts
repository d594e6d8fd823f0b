// The independent evaluation world's map (see independent-world.ts): some 80 시/군/구 with their
// real 법정동 (urban) or 읍/면 and 리 (rural), real or plausible road names, and a directory of
// about 15,000 buildings written the way the 도로명주소 한글 files carry them. Also what a list
// copied in an earlier year would have called each place: 인천 남구 before 미추홀구, 청원군 before
// 청주시 청원구, 당진군, 부천시 without its 구 in 2016–2023, 군위군 in 경상북도, 연기군 before 세종,
// 강원도 and 전라북도, 면 that became 읍; roads renamed since; buildings renamed or demolished since.

import type { DirectoryEntry } from '../../src/domain/address/types.ts';
import { addressDbLine, relatedLotLine } from '../../src/addresses/address-db-fixture.ts';
import {
  APT_BRANDS, APT_TAILS, between, chance, FACTORY_NAMES, KNOWLEDGE_NAMES, OFFICETEL_NAMES, pick, PLAZA_NAMES, PUBLIC_NAMES, type Rand,
  SMALL_BUILDING_TAILS, STEMS, TOWER_NAMES, VILLA_TAILS, weighted,
} from './independent-names.ts';

export type Profile = 'core' | 'residential' | 'industrial' | 'mixed' | 'rural';
export type Kind = 'apt' | 'villa' | 'house' | 'shopbldg' | 'plaza' | 'tower' | 'officetel' | 'knowledge' | 'factory' | 'public';

interface SggSpec {
  sido: string;
  sgg: string;
  code: string;
  p: Profile;
  w: number;
  zip: number;
  zip6: string;
  tax: string;
  /** urban 동 separated by spaces ("가산동*" an industrial hub, "마곡동@2014" built from 2014), rural "양평읍(양근리 백안리)" */
  areas: string;
  roads: string;
  /** names the place had: [from, until) years, in the listed areas only when given */
  history?: readonly { from?: number; until: number; sido?: string; sgg?: string; areas?: readonly string[] }[];
  /** 읍/면 renamed: current name → [old name, until] */
  was?: Readonly<Record<string, readonly [string, number]>>;
}

const S = '서울특별시';
const G = '경기도';
const TABLE: readonly SggSpec[] = [
  { sido: S, sgg: '강남구', code: '11680', p: 'core', w: 5, zip: 6000, zip6: '135', tax: '120 211 220', areas: '역삼동 삼성동 논현동 대치동 청담동 신사동 도곡동 개포동 압구정동 일원동', roads: '테헤란로 강남대로 봉은사로 언주로 도산대로 선릉로 영동대로 논현로 삼성로 학동로 역삼로 남부순환로' },
  { sido: S, sgg: '서초구', code: '11650', p: 'core', w: 3, zip: 6500, zip6: '137', tax: '114 214', areas: '서초동 반포동 방배동 양재동 잠원동 우면동', roads: '서초대로 반포대로 강남대로 사평대로 방배로 효령로 바우뫼로 양재대로 서초중앙로' },
  { sido: S, sgg: '송파구', code: '11710', p: 'residential', w: 3, zip: 5500, zip6: '138', tax: '215 230', areas: '잠실동 문정동 가락동 방이동 석촌동 송파동 거여동', roads: '올림픽로 송파대로 백제고분로 중대로 오금로 양재대로 법원로 충민로' },
  { sido: S, sgg: '영등포구', code: '11560', p: 'core', w: 3, zip: 7200, zip6: '150', tax: '107 108', areas: '영등포동 여의도동 당산동 문래동* 양평동 신길동 대림동', roads: '여의대로 국제금융로 의사당대로 영등포로 선유로 도림로 경인로 당산로 문래로' },
  { sido: S, sgg: '마포구', code: '11440', p: 'core', w: 2, zip: 3900, zip6: '121', tax: '105 110', areas: '서교동 합정동 망원동 상암동 공덕동 도화동 연남동', roads: '월드컵로 양화로 마포대로 독막로 성미산로 동교로 월드컵북로 와우산로' },
  { sido: S, sgg: '중구', code: '11140', p: 'core', w: 2, zip: 4500, zip6: '100', tax: '104 201', areas: '신당동 황학동 명동2가 을지로3가 충무로3가 회현동1가 묵정동', roads: '을지로 퇴계로 다산로 세종대로 남대문로 마른내로 동호로' },
  { sido: S, sgg: '종로구', code: '11110', p: 'core', w: 1.5, zip: 3000, zip6: '110', tax: '101', areas: '관철동 인사동 낙원동 창신동 숭인동 혜화동 명륜3가', roads: '종로 율곡로 대학로 창경궁로 지봉로 삼일대로 창신길' },
  { sido: S, sgg: '금천구', code: '11545', p: 'industrial', w: 2.5, zip: 8500, zip6: '153', tax: '119 113', areas: '가산동* 독산동 시흥동', roads: '디지털로 가산디지털1로 가산디지털2로 벚꽃로 시흥대로 독산로 금하로 범안로' },
  { sido: S, sgg: '구로구', code: '11530', p: 'industrial', w: 2, zip: 8200, zip6: '152', tax: '113', areas: '구로동* 신도림동 개봉동 오류동 고척동', roads: '디지털로 구로중앙로 경인로 새말로 개봉로 고척로' },
  { sido: S, sgg: '성동구', code: '11200', p: 'industrial', w: 2, zip: 4700, zip6: '133', tax: '206', areas: '성수동1가 성수동2가* 행당동 옥수동 금호동2가 하왕십리동', roads: '성수이로 아차산로 왕십리로 뚝섬로 성수일로 연무장길 고산자로' },
  { sido: S, sgg: '강서구', code: '11500', p: 'residential', w: 2, zip: 7500, zip6: '157', tax: '109', areas: '마곡동@2014 화곡동 등촌동 염창동 가양동 방화동', roads: '공항대로 강서로 화곡로 마곡중앙로 양천로 방화대로 등촌로' },
  { sido: S, sgg: '노원구', code: '11350', p: 'residential', w: 1.5, zip: 1600, zip6: '139', tax: '217', areas: '상계동 중계동 하계동 공릉동 월계동', roads: '동일로 노원로 한글비석로 상계로 공릉로 월계로' },
  { sido: S, sgg: '동대문구', code: '11230', p: 'residential', w: 1.5, zip: 2400, zip6: '130', tax: '204', areas: '장안동 답십리동 용두동 제기동 회기동 휘경동 전농동', roads: '천호대로 왕산로 장한로 답십리로 망우로 고산자로' },
  { sido: S, sgg: '은평구', code: '11380', p: 'residential', w: 1.2, zip: 3300, zip6: '122', tax: '110', areas: '불광동 응암동 녹번동 진관동@2009 갈현동', roads: '통일로 은평로 연서로 진관2로 서오릉로' },
  { sido: G, sgg: '성남시 분당구', code: '41135', p: 'core', w: 3, zip: 13400, zip6: '463', tax: '144 129', areas: '정자동 서현동 수내동 야탑동 삼평동@2010 백현동 이매동 구미동', roads: '판교역로 정자일로 황새울로 성남대로 분당로 대왕판교로 돌마로 서현로' },
  { sido: G, sgg: '성남시 중원구', code: '41133', p: 'industrial', w: 1.5, zip: 13200, zip6: '462', tax: '129', areas: '상대원동* 성남동 금광동 은행동 중앙동 하대원동', roads: '둔촌대로 사기막골로 광명로 제일로 산성대로 희망로' },
  { sido: G, sgg: '수원시 영통구', code: '41117', p: 'residential', w: 2, zip: 16500, zip6: '443', tax: '124 135', areas: '영통동 매탄동 원천동 이의동@2011 하동 망포동', roads: '광교중앙로 영통로 매영로 덕영대로 봉영로 광교호수로' },
  { sido: G, sgg: '수원시 팔달구', code: '41115', p: 'residential', w: 1.2, zip: 16400, zip6: '442', tax: '124', areas: '인계동 매교동 지동 우만동 화서동', roads: '효원로 경수대로 권광로 중부대로 팔달로 수성로' },
  { sido: G, sgg: '용인시 기흥구', code: '41463', p: 'mixed', w: 1.5, zip: 16900, zip6: '446', tax: '142', areas: '구갈동 신갈동 보정동 중동 영덕동 상갈동', roads: '중부대로 기흥로 용구대로 신갈로 죽전로' },
  { sido: G, sgg: '용인시 수지구', code: '41465', p: 'residential', w: 1.2, zip: 16800, zip6: '448', tax: '142', areas: '풍덕천동 죽전동 상현동 성복동 동천동', roads: '수지로 포은대로 문정로 신수로 동천로' },
  { sido: G, sgg: '고양시 일산동구', code: '41285', p: 'residential', w: 1.5, zip: 10400, zip6: '410', tax: '128', areas: '장항동 백석동 마두동 식사동 풍동', roads: '중앙로 일산로 정발산로 호수로 고봉로' },
  { sido: G, sgg: '고양시 덕양구', code: '41281', p: 'residential', w: 1, zip: 10500, zip6: '412', tax: '128', areas: '화정동 행신동 원흥동@2013 성사동 토당동', roads: '화정로 충장로 고양대로 권율대로' },
  { sido: G, sgg: '부천시 원미구', code: '41192', p: 'residential', w: 1.5, zip: 14500, zip6: '420', tax: '130', areas: '중동 상동 심곡동 원미동 춘의동* 도당동', roads: '길주로 부일로 상동로 소향로 송내대로 조마루로', history: [{ from: 2016.5, until: 2024.0, sgg: '부천시' }] },
  { sido: G, sgg: '안산시 단원구', code: '41273', p: 'industrial', w: 1.5, zip: 15300, zip6: '425', tax: '134', areas: '고잔동 원곡동 성곡동* 초지동 선부동 목내동*', roads: '고잔로 광덕대로 원포공원로 산단로 해안로 신길로' },
  { sido: G, sgg: '안양시 동안구', code: '41173', p: 'industrial', w: 1.5, zip: 14000, zip6: '431', tax: '138', areas: '평촌동 관양동* 비산동 호계동', roads: '시민대로 평촌대로 흥안대로 엘에스로 관악대로' },
  { sido: G, sgg: '시흥시', code: '41390', p: 'industrial', w: 1.2, zip: 14900, zip6: '429', tax: '140', areas: '정왕동* 대야동 신천동 은행동 장곡동', roads: '공단1대로 시화벤처로 정왕대로 신천로 은행로' },
  { sido: G, sgg: '화성시', code: '41590', p: 'mixed', w: 1.8, zip: 18400, zip6: '445', tax: '143', areas: '반송동 석우동 청계동@2015 영천동@2015* 봉담읍(동화리 상리 와우리) 향남읍(발안리 상신리* 구문천리) 팔탄면(구장리 가재리*)', roads: '동탄대로 동탄중앙로 동탄순환대로 노작로 삼성1로' },
  { sido: G, sgg: '김포시', code: '41570', p: 'mixed', w: 1, zip: 10000, zip6: '415', tax: '137', areas: '사우동 풍무동 장기동 구래동@2013* 마산동 통진읍(마송리 옹정리) 양촌읍(학운리* 누산리* 양곡리) 대곶면(대능리 석정리)', roads: '김포대로 사우중로 풍무로 김포한강로 태장로' },
  { sido: G, sgg: '평택시', code: '41220', p: 'mixed', w: 1, zip: 17700, zip6: '450', tax: '125', areas: '비전동 세교동 합정동 고덕동@2017 포승읍(원정리* 만호리 도곡리) 청북읍(현곡리 옥길리) 팽성읍(안정리 객사리)', roads: '평택로 중앙로 경기대로 비전로 평택1로', was: { 포승읍: ['포승면', 2021.0], 청북읍: ['청북면', 2021.0] } },
  { sido: G, sgg: '광주시', code: '41610', p: 'mixed', w: 0.8, zip: 12700, zip6: '464', tax: '126', areas: '경안동 송정동 역동 탄벌동 오포읍(신현리 능평리 양벌리*) 초월읍(지월리 쌍동리*) 곤지암읍(곤지암리 삼리)', roads: '경안로 광주대로 중앙로 역동로' },
  { sido: G, sgg: '이천시', code: '41500', p: 'mixed', w: 0.8, zip: 17300, zip6: '467', tax: '126', areas: '창전동 중리동 관고동 부발읍(아미리* 신하리) 마장면(덕평리* 이치리) 호법면(단천리 후안리)', roads: '중리천로 이섭대천로 경충대로 서희로' },
  { sido: G, sgg: '남양주시', code: '41360', p: 'residential', w: 0.8, zip: 12000, zip6: '472', tax: '132', areas: '다산동@2016 별내동@2012 호평동 평내동 화도읍(마석우리 창현리) 진접읍(장현리 부평리)', roads: '다산중앙로 경춘로 별내중앙로 호평로' },
  { sido: G, sgg: '하남시', code: '41450', p: 'residential', w: 0.6, zip: 12900, zip6: '465', tax: '126', areas: '망월동@2013 풍산동* 신장동 덕풍동 감일동@2019', roads: '미사대로 하남대로 덕풍로 신장로' },
  { sido: G, sgg: '양평군', code: '41830', p: 'rural', w: 0.6, zip: 12500, zip6: '476', tax: '132', areas: '양평읍(양근리 백안리 오빈리 도곡리) 용문면(다문리 광탄리) 서종면(문호리 서후리) 옥천면(옥천리 아신리)', roads: '' },
  { sido: G, sgg: '가평군', code: '41820', p: 'rural', w: 0.4, zip: 12400, zip6: '477', tax: '132', areas: '가평읍(읍내리 대곡리) 청평면(청평리 대성리) 설악면(신천리 위곡리)', roads: '' },
  { sido: '인천광역시', sgg: '미추홀구', code: '28177', p: 'residential', w: 1.2, zip: 22100, zip6: '402', tax: '131 121', areas: '주안동 용현동 학익동 숭의동 도화동 관교동', roads: '인하로 주안로 경원대로 석정로 매소홀로 인주대로', history: [{ until: 2018.5, sgg: '남구' }] },
  { sido: '인천광역시', sgg: '남동구', code: '28200', p: 'industrial', w: 1.5, zip: 21500, zip6: '405', tax: '131', areas: '구월동 간석동 만수동 논현동 고잔동*', roads: '남동대로 인주대로 예술로 논고개로 남동서로 앵고개로' },
  { sido: '인천광역시', sgg: '연수구', code: '28185', p: 'residential', w: 1, zip: 21900, zip6: '406', tax: '131', areas: '송도동@2008 연수동 동춘동 옥련동 청학동', roads: '컨벤시아대로 송도과학로 인천타워대로 경원대로 비류대로' },
  { sido: '인천광역시', sgg: '부평구', code: '28237', p: 'residential', w: 1, zip: 21300, zip6: '403', tax: '122', areas: '부평동 십정동 산곡동 청천동* 갈산동', roads: '부평대로 경원대로 장제로 마장로' },
  { sido: '인천광역시', sgg: '강화군', code: '28710', p: 'rural', w: 0.3, zip: 23000, zip6: '417', tax: '122', areas: '강화읍(관청리 갑곳리 신문리) 길상면(온수리 초지리) 불은면(삼성리 두운리)', roads: '' },
  { sido: '부산광역시', sgg: '해운대구', code: '26350', p: 'core', w: 1.5, zip: 48000, zip6: '612', tax: '617 621', areas: '우동 중동 좌동 재송동 반여동', roads: '해운대로 센텀중앙로 센텀동로 달맞이길 좌동순환로 재반로' },
  { sido: '부산광역시', sgg: '부산진구', code: '26230', p: 'core', w: 1.2, zip: 47200, zip6: '614', tax: '605', areas: '부전동 전포동 범천동 양정동 개금동', roads: '중앙대로 가야대로 서면로 전포대로 동평로' },
  { sido: '부산광역시', sgg: '사상구', code: '26530', p: 'industrial', w: 1, zip: 46900, zip6: '617', tax: '606', areas: '감전동* 괘법동 주례동 학장동* 모라동', roads: '사상로 새벽로 학장로 낙동대로' },
  { sido: '부산광역시', sgg: '기장군', code: '26710', p: 'rural', w: 0.5, zip: 46000, zip6: '619', tax: '621', areas: '기장읍(대라리 동부리 청강리) 정관읍(매학리 용수리* 모전리) 일광읍(삼성리 이천리)', roads: '', was: { 일광읍: ['일광면', 2023.0] } },
  { sido: '대구광역시', sgg: '수성구', code: '27260', p: 'residential', w: 1, zip: 42000, zip6: '706', tax: '514', areas: '범어동 만촌동 황금동 지산동 신매동', roads: '달구벌대로 동대구로 범어로 무학로 수성로' },
  { sido: '대구광역시', sgg: '달서구', code: '27290', p: 'industrial', w: 1.2, zip: 42600, zip6: '704', tax: '515', areas: '상인동 월성동 이곡동 본리동 갈산동* 호림동*', roads: '달서대로 월배로 성서공단로 와룡로 달구벌대로' },
  { sido: '대구광역시', sgg: '북구', code: '27230', p: 'mixed', w: 0.8, zip: 41500, zip6: '702', tax: '504', areas: '침산동 산격동 복현동 칠성동 태전동', roads: '침산로 연암로 대현로 칠곡중앙대로' },
  { sido: '대구광역시', sgg: '군위군', code: '27720', p: 'rural', w: 0.2, zip: 43100, zip6: '716', tax: '513', areas: '군위읍(동부리 서부리) 효령면(장군리 화계리)', roads: '', history: [{ until: 2023.5, sido: '경상북도' }] },
  { sido: '대전광역시', sgg: '유성구', code: '30200', p: 'industrial', w: 1, zip: 34100, zip6: '305', tax: '314', areas: '봉명동 궁동 어은동 탑립동* 관평동* 도룡동', roads: '대학로 유성대로 테크노2로 엑스포로 대덕대로' },
  { sido: '대전광역시', sgg: '서구', code: '30170', p: 'core', w: 1, zip: 35200, zip6: '302', tax: '305', areas: '둔산동 월평동 갈마동 탄방동 괴정동', roads: '둔산로 한밭대로 대덕대로 계룡로 갈마로' },
  { sido: '광주광역시', sgg: '광산구', code: '29200', p: 'industrial', w: 0.8, zip: 62200, zip6: '506', tax: '410', areas: '쌍암동 월계동 수완동 신가동 장덕동* 안청동*', roads: '첨단중앙로 무진대로 하남산단로 수완로' },
  { sido: '광주광역시', sgg: '서구', code: '29140', p: 'core', w: 0.7, zip: 61900, zip6: '502', tax: '408', areas: '치평동 농성동 화정동 쌍촌동 풍암동', roads: '상무중앙로 무진대로 운천로 상무대로' },
  { sido: '울산광역시', sgg: '남구', code: '31140', p: 'mixed', w: 0.8, zip: 44600, zip6: '680', tax: '610', areas: '삼산동 달동 신정동 무거동 옥동 여천동*', roads: '삼산로 번영로 문수로 대학로 산업로' },
  { sido: '울산광역시', sgg: '울주군', code: '31710', p: 'rural', w: 0.4, zip: 44900, zip6: '689', tax: '610', areas: '언양읍(남부리 동부리 서부리) 온산읍(덕신리 화산리*) 삼남읍(교동리 신화리)', roads: '', was: { 삼남읍: ['삼남면', 2022.0] } },
  { sido: '세종특별자치시', sgg: '', code: '36110', p: 'mixed', w: 0.6, zip: 30100, zip6: '339', tax: '320', areas: '나성동@2014 어진동@2013 보람동@2014 도담동@2013 종촌동@2013 아름동@2013 고운동@2014 조치원읍(원리 상리 정리) 연서면(봉암리 월하리*)', roads: '한누리대로 도움로 갈매로 보듬로 다솜로', history: [{ until: 2012.5, sido: '충청남도', sgg: '연기군' }] },
  { sido: '강원특별자치도', sgg: '춘천시', code: '51110', p: 'mixed', w: 0.5, zip: 24300, zip6: '200', tax: '221', areas: '후평동 석사동 퇴계동 온의동 효자동 신북읍(천전리 율문리)', roads: '중앙로 후석로 동내로 퇴계로', history: [{ until: 2023.45, sido: '강원도' }] },
  { sido: '강원특별자치도', sgg: '원주시', code: '51130', p: 'mixed', w: 0.5, zip: 26400, zip6: '220', tax: '224', areas: '단계동 무실동 명륜동 반곡동 태장동 문막읍(건등리 동화리*) 지정면(가곡리 간현리)', roads: '단계로 시청로 서원대로 혁신로', history: [{ until: 2023.45, sido: '강원도' }] },
  { sido: '강원특별자치도', sgg: '평창군', code: '51760', p: 'rural', w: 0.3, zip: 25300, zip6: '232', tax: '225', areas: '평창읍(중리 하리 종부리) 대관령면(횡계리 용산리) 봉평면(창동리 면온리)', roads: '', history: [{ until: 2023.45, sido: '강원도' }] },
  { sido: '충청북도', sgg: '청주시 청원구', code: '43114', p: 'mixed', w: 0.6, zip: 28100, zip6: '363', tax: '317', areas: '율량동 내덕동 주중동 오창읍(양청리* 각리 송대리) 내수읍(내수리 마산리)', roads: '율량로 공항로 충청대로 2순환로', history: [{ until: 2014.5, sgg: '청원군', areas: ['오창읍', '내수읍'] }, { until: 2014.5, sgg: '청주시 상당구', areas: ['율량동', '내덕동', '주중동'] }] },
  { sido: '충청북도', sgg: '청주시 흥덕구', code: '43113', p: 'mixed', w: 0.6, zip: 28400, zip6: '361', tax: '301', areas: '복대동 가경동 봉명동 송정동* 오송읍(오송리 봉산리* 만수리)', roads: '직지대로 2순환로 가경로 1순환로', history: [{ until: 2014.5, sgg: '청원군', areas: ['오송읍'] }], was: { 오송읍: ['오송면', 2012.0] } },
  { sido: '충청북도', sgg: '충주시', code: '43130', p: 'mixed', w: 0.4, zip: 27300, zip6: '380', tax: '303', areas: '연수동 교현동 칠금동 용산동 주덕읍(신양리 화곡리) 대소원면(영평리 본리*)', roads: '중원대로 예성로 국원대로' },
  { sido: '충청북도', sgg: '음성군', code: '43770', p: 'rural', w: 0.4, zip: 27600, zip6: '369', tax: '303', areas: '음성읍(읍내리 평곡리) 금왕읍(무극리 용계리*) 대소면(오산리* 삼정리)', roads: '' },
  { sido: '충청남도', sgg: '천안시 서북구', code: '44133', p: 'mixed', w: 0.8, zip: 31100, zip6: '331', tax: '312', areas: '불당동@2005 쌍용동 백석동* 두정동 성정동 성거읍(저리 송남리) 직산읍(군서리 판정리*)', roads: '번영로 불당대로 쌍용대로 충무로' },
  { sido: '충청남도', sgg: '아산시', code: '44200', p: 'mixed', w: 0.6, zip: 31400, zip6: '336', tax: '312', areas: '온천동 권곡동 배방읍(장재리 공수리) 탕정면(명암리* 매곡리) 둔포면(석곡리* 둔포리)', roads: '번영로 온천대로 시민로' },
  { sido: '충청남도', sgg: '당진시', code: '44270', p: 'mixed', w: 0.5, zip: 31700, zip6: '343', tax: '310', areas: '읍내동 채운동 합덕읍(운산리 합덕리) 송악읍(한진리* 고대리* 기지시리) 석문면(통정리* 장고항리)', roads: '당진중앙1로 남부로 시청1로', history: [{ until: 2012.0, sgg: '당진군' }] },
  { sido: '충청남도', sgg: '홍성군', code: '44800', p: 'rural', w: 0.3, zip: 32200, zip6: '350', tax: '310', areas: '홍성읍(오관리 고암리) 홍북읍(신경리@2013 대인리) 광천읍(광천리 신진리)', roads: '', was: { 홍북읍: ['홍북면', 2020.0] } },
  { sido: '전북특별자치도', sgg: '전주시 완산구', code: '52111', p: 'mixed', w: 0.5, zip: 54900, zip6: '560', tax: '402', areas: '서신동 효자동3가 중노송동 삼천동1가 평화동2가', roads: '홍산로 효자로 기린대로 백제대로', history: [{ until: 2024.05, sido: '전라북도' }] },
  { sido: '전북특별자치도', sgg: '전주시 덕진구', code: '52113', p: 'mixed', w: 0.5, zip: 54800, zip6: '561', tax: '418', areas: '인후동1가 송천동2가 덕진동1가 팔복동2가* 호성동1가', roads: '기린대로 백제대로 송천중앙로 팔과정로', history: [{ until: 2024.05, sido: '전라북도' }] },
  { sido: '전북특별자치도', sgg: '익산시', code: '52140', p: 'mixed', w: 0.4, zip: 54500, zip6: '570', tax: '403', areas: '영등동 어양동 모현동1가 팔봉동* 함열읍(와리 흘산리) 왕궁면(광암리 온수리)', roads: '무왕로 인북로 선화로', history: [{ until: 2024.05, sido: '전라북도' }] },
  { sido: '전북특별자치도', sgg: '완주군', code: '52710', p: 'rural', w: 0.4, zip: 55300, zip6: '565', tax: '402', areas: '봉동읍(장구리* 둔산리) 삼례읍(삼례리 후정리) 이서면(반교리 갈산리@2014)', roads: '', history: [{ until: 2024.05, sido: '전라북도' }] },
  { sido: '전라남도', sgg: '순천시', code: '46150', p: 'mixed', w: 0.4, zip: 57900, zip6: '540', tax: '416', areas: '조례동 연향동 왕지동 풍덕동 해룡면(신대리 복성리) 서면(선평리 운평리)', roads: '중앙로 연향로 왕지로 팔마로' },
  { sido: '전라남도', sgg: '여수시', code: '46130', p: 'mixed', w: 0.4, zip: 59600, zip6: '550', tax: '417', areas: '학동 여서동 문수동 소호동 화치동* 돌산읍(우두리 군내리) 율촌면(조화리 가장리*)', roads: '시청로 좌수영로 여문로' },
  { sido: '전라남도', sgg: '무안군', code: '46840', p: 'rural', w: 0.3, zip: 58500, zip6: '534', tax: '411', areas: '무안읍(성남리 성동리) 삼향읍(남악리@2006 유교리) 일로읍(월암리 망월리)', roads: '' },
  { sido: '경상북도', sgg: '포항시 남구', code: '47111', p: 'mixed', w: 0.5, zip: 37800, zip6: '790', tax: '506', areas: '대잠동 이동 효자동 호동* 장흥동* 연일읍(생지리 택전리) 오천읍(문덕리 원리)', roads: '포스코대로 희망대로 대잠로 새천년대로' },
  { sido: '경상북도', sgg: '구미시', code: '47190', p: 'industrial', w: 0.6, zip: 39200, zip6: '730', tax: '513', areas: '원평동 송정동 형곡동 공단동* 임수동* 옥계동 선산읍(동부리 완전리) 산동읍(인덕리 봉산리*)', roads: '1공단로 3공단로 구미중앙로 송정대로 박정희로', was: { 산동읍: ['산동면', 2022.0] } },
  { sido: '경상북도', sgg: '경산시', code: '47290', p: 'mixed', w: 0.4, zip: 38500, zip6: '712', tax: '515', areas: '중방동 옥산동 사동 하양읍(금락리 동서리) 진량읍(신상리* 선화리*) 압량읍(압량리 신대리)', roads: '중앙로 경안로 대학로', was: { 압량읍: ['압량면', 2020.0] } },
  { sido: '경상북도', sgg: '칠곡군', code: '47850', p: 'rural', w: 0.3, zip: 39800, zip6: '718', tax: '513', areas: '왜관읍(왜관리 석전리*) 석적읍(중리 남율리) 북삼읍(인평리 율리)', roads: '' },
  { sido: '경상남도', sgg: '창원시 성산구', code: '48123', p: 'industrial', w: 0.7, zip: 51400, zip6: '642', tax: '609', areas: '상남동 중앙동 용호동 사파동 성주동* 웅남동*', roads: '중앙대로 원이대로 창원대로 상남로 용지로' },
  { sido: '경상남도', sgg: '창원시 마산회원구', code: '48127', p: 'mixed', w: 0.4, zip: 51300, zip6: '630', tax: '608', areas: '양덕동 석전동 합성동 회원동 구암동 내서읍(중리 호계리)', roads: '양덕로 석전로 구암로 팔용로' },
  { sido: '경상남도', sgg: '김해시', code: '48250', p: 'mixed', w: 0.6, zip: 50800, zip6: '621', tax: '615', areas: '내동 외동 삼계동 대청동 관동동 진영읍(여래리 좌곤리) 주촌면(선천리* 농소리*) 한림면(신천리 명동리*)', roads: '김해대로 가야로 금관대로 장유로' },
  { sido: '경상남도', sgg: '양산시', code: '48330', p: 'mixed', w: 0.4, zip: 50500, zip6: '626', tax: '621', areas: '중부동 평산동 덕계동 물금읍(범어리 가촌리 증산리@2014) 상북면(석계리* 소토리)', roads: '양산대로 중앙로 삼일로' },
  { sido: '경상남도', sgg: '함안군', code: '48730', p: 'rural', w: 0.3, zip: 52000, zip6: '637', tax: '608', areas: '가야읍(말산리 산서리) 칠원읍(구성리 오곡리) 군북면(덕대리 소포리*)', roads: '' },
  { sido: '제주특별자치도', sgg: '제주시', code: '50110', p: 'mixed', w: 0.6, zip: 63100, zip6: '690', tax: '616', areas: '연동 노형동 이도이동 일도이동 아라일동 삼도이동 애월읍(애월리 하귀1리 곽지리) 조천읍(조천리 함덕리) 한림읍(한림리 옹포리)', roads: '중앙로 연삼로 노형로 신대로 도령로' },
  { sido: '제주특별자치도', sgg: '서귀포시', code: '50130', p: 'mixed', w: 0.4, zip: 63500, zip6: '697', tax: '616', areas: '서귀동 동홍동 서홍동 강정동 중문동 성산읍(고성리 성산리) 남원읍(남원리 위미리) 대정읍(하모리 상모리)', roads: '중앙로 일주동로 중정로' },
];

/** Short forms people write for a 시/도. */
export const SIDO_SHORT: Readonly<Record<string, readonly string[]>> = {
  서울특별시: ['서울', '서울시'], 경기도: ['경기'], 인천광역시: ['인천', '인천시'], 부산광역시: ['부산', '부산시'], 대구광역시: ['대구', '대구시'],
  대전광역시: ['대전', '대전시'], 광주광역시: ['광주', '광주시'], 울산광역시: ['울산', '울산시'], 세종특별자치시: ['세종', '세종시'],
  강원특별자치도: ['강원'], 강원도: ['강원'], 충청북도: ['충북'], 충청남도: ['충남'], 전북특별자치도: ['전북'], 전라북도: ['전북'], 전라남도: ['전남'],
  경상북도: ['경북'], 경상남도: ['경남'], 제주특별자치도: ['제주', '제주도'],
};

export interface Area {
  name: string;
  /** 법정리 of a 읍/면, [] for a 동 */
  ris: readonly string[];
  rural: boolean;
  /** buildings are no older than this (new towns) */
  since: number;
  hub: boolean;
  hubRis: ReadonlySet<string>;
  sinceRi: ReadonlyMap<string, number>;
  code: string;
  zips: readonly string[];
  zip6: string;
  was: readonly [string, number] | null;
}

export interface Sigungu {
  spec: SggSpec;
  sido: string;
  name: string;
  profile: Profile;
  weight: number;
  areas: Area[];
  taxOffices: readonly string[];
}

export interface Road {
  name: string;
  code: string;
  main: boolean;
  /** the road was renamed in `until`: its name before */
  former: { name: string; until: number } | null;
  next: number;
  used: Set<string>;
  zipIndex: number;
}

export interface Building {
  index: number;
  entry: DirectoryEntry;
  kind: Kind;
  sgg: Sigungu;
  area: Area;
  road: Road;
  rural: boolean;
  /** a village carrier's round: a 면 (not the 읍 centre) */
  village: boolean;
  built: number;
  /** year it was torn down (then it is not in the directory), or null */
  demolished: number | null;
  /** the building's name before a renaming, and the year of it */
  formerName: { name: string; until: number } | null;
  relatedLots: { main: number; sub: number }[];
  /** floors (and 동 count for apartments) the unit generator draws from */
  floors: number;
  blocks: number;
  /** relative number of businesses (or households, for homes) it holds */
  cap: number;
  /** a shared-office (비상주) host: its unit */
  virtualUnit: string | null;
}

export interface Directory {
  sigungu: Sigungu[];
  buildings: Building[];
  lines: string[];
  relatedLines: string[];
}

const MIX: Record<Profile, Partial<Record<Kind, number>>> = {
  core: { apt: 0.05, villa: 0.14, house: 0.12, shopbldg: 0.38, plaza: 0.09, tower: 0.1, officetel: 0.06, knowledge: 0.01, public: 0.02 },
  residential: { apt: 0.1, villa: 0.3, house: 0.18, shopbldg: 0.24, plaza: 0.08, tower: 0.02, officetel: 0.03, knowledge: 0.005, factory: 0.01, public: 0.03 },
  industrial: { apt: 0.04, villa: 0.14, house: 0.12, shopbldg: 0.28, plaza: 0.05, tower: 0.04, officetel: 0.04, knowledge: 0.03, factory: 0.16, public: 0.02 },
  mixed: { apt: 0.08, villa: 0.2, house: 0.24, shopbldg: 0.26, plaza: 0.07, tower: 0.02, officetel: 0.02, knowledge: 0.005, factory: 0.07, public: 0.03 },
  rural: { apt: 0.02, villa: 0.04, house: 0.58, shopbldg: 0.16, plaza: 0.02, factory: 0.14, public: 0.04 },
};

const stemOf = (name: string): string => {
  const s = name.replace(/([0-9]*가$|[0-9]*[동읍면리]$)/, '');
  return s.length >= 2 ? s : name;
};

function parseAreas(r: Rand, s: SggSpec): Area[] {
  const out: Area[] = [];
  let i = 0;
  for (const m of s.areas.matchAll(/([^\s()]+)(?:\(([^)]*)\))?/g)) {
    const raw = m[1]!;
    const name = raw.replace(/[*@].*$/, '');
    const rural = m[2] !== undefined;
    const sinceM = /@([0-9]{4})/.exec(raw);
    const risRaw = rural ? m[2]!.split(' ') : [];
    const ris = risRaw.map((x) => x.replace(/[*@].*$/, ''));
    const hubRis = new Set(risRaw.filter((x) => x.includes('*')).map((x) => x.replace(/[*@].*$/, '')));
    const sinceRi = new Map(risRaw.filter((x) => x.includes('@')).map((x) => [x.replace(/[*@].*$/, ''), Number(/@([0-9]{4})/.exec(x)![1])] as const));
    const base = s.zip + i * 9;
    out.push({
      name, ris, rural, since: sinceM ? Number(sinceM[1]) : 1960, hub: raw.includes('*'), hubRis, sinceRi,
      code: rural ? String(250 + i * 3) : String(101 + i).padStart(3, '0'),
      zips: [0, 3, 6].map((k) => String(base + k + between(r, 0, 2)).padStart(5, '0')),
      zip6: `${s.zip6}-${String(10 + i * 30 + between(r, 0, 9) * 2).padStart(3, '0')}`,
      was: s.was?.[name] ?? null,
    });
    i++;
  }
  return out;
}

/** The names a place went by at `year`: 시/도, 시/군/구, 읍/면/동. */
export function namesAt(b: Building, year: number): { sido: string; sgg: string; area: string } {
  let sido = b.sgg.sido;
  let sgg = b.sgg.name;
  for (const h of b.sgg.spec.history ?? []) {
    if (year >= h.until || (h.from !== undefined && year < h.from)) continue;
    if (h.areas && !h.areas.includes(b.area.name)) continue;
    if (h.sido) sido = h.sido;
    if (h.sgg !== undefined) sgg = h.sgg;
  }
  const area = b.area.was && year < b.area.was[1] ? b.area.was[0] : b.area.name;
  return { sido, sgg, area };
}

function buildingName(r: Rand, kind: Kind, place: string): string {
  const s = pick(r, STEMS);
  switch (kind) {
    case 'apt': {
      const [brand, form] = pick(r, APT_BRANDS);
      const tail = chance(r, 0.35) ? pick(r, APT_TAILS) : '';
      const name = form === 'pre' ? `${brand}${place}${tail}` : `${place}${brand}${tail}`;
      return chance(r, 0.25) && !name.endsWith('단지') ? `${name}아파트` : name;
    }
    case 'villa': return chance(r, 0.4) ? '' : `${chance(r, 0.6) ? s : place}${pick(r, VILLA_TAILS)}`;
    case 'house': return chance(r, 0.96) ? '' : `${s}하우스`;
    case 'shopbldg': return chance(r, 0.55) ? '' : `${s}${pick(r, SMALL_BUILDING_TAILS)}`;
    case 'plaza': return pick(r, PLAZA_NAMES)(place, s);
    case 'tower': return pick(r, TOWER_NAMES)(place, s);
    case 'officetel': return pick(r, OFFICETEL_NAMES)(place, s);
    case 'knowledge': return pick(r, KNOWLEDGE_NAMES)(place, s, between(r, 1, 5));
    case 'factory': return chance(r, 0.65) ? '' : pick(r, FACTORY_NAMES)(s, between(r, 1, 3));
    case 'public': return pick(r, PUBLIC_NAMES)(place);
  }
}

function shape(r: Rand, kind: Kind, rural: boolean): { floors: number; blocks: number; cap: number } {
  switch (kind) {
    case 'apt': { const blocks = between(r, 2, 18); const floors = between(r, 10, 25); return { floors, blocks, cap: (blocks * floors * 4) / 100 }; }
    case 'villa': return { floors: between(r, 3, 5), blocks: chance(r, 0.2) ? 2 : 1, cap: 1 };
    case 'house': return { floors: between(r, 1, 2), blocks: 1, cap: rural ? 1.3 : 1 };
    case 'shopbldg': { const floors = between(r, 2, 6); return { floors, blocks: 1, cap: floors * 0.8 }; }
    case 'plaza': { const floors = between(r, 3, 9); return { floors, blocks: 1, cap: floors * 2.5 }; }
    case 'tower': { const floors = between(r, 8, 35); return { floors, blocks: 1, cap: floors * 1.5 }; }
    case 'officetel': { const floors = between(r, 10, 25); return { floors, blocks: chance(r, 0.1) ? 2 : 1, cap: floors * 2 }; }
    case 'knowledge': { const floors = between(r, 8, 20); return { floors, blocks: chance(r, 0.4) ? 2 : 1, cap: floors * 10 }; }
    case 'factory': return { floors: 1, blocks: chance(r, 0.2) ? 2 : 1, cap: 1 };
    case 'public': return { floors: 3, blocks: 1, cap: 0 };
  }
}

/** A building's unit as it really is (동/호, 층, 호), or '' when it has none. */
export function unitOf(r: Rand, b: Building, role: 'home' | 'shop' | 'office'): string {
  const f = between(r, 1, b.floors);
  const line = between(r, 1, 4);
  const ab = b.blocks > 1 ? `${pick(r, ['A', 'B'])}동 ` : '';
  switch (b.kind) {
    case 'apt': return `${100 + between(r, 1, b.blocks)}동 ${f}${String(line).padStart(2, '0')}호`;
    case 'villa': return chance(r, 0.08) ? `B0${line}호` : `${b.blocks > 1 ? `${pick(r, ['가', '나'])}동 ` : ''}${f}0${line}호`;
    case 'officetel': return `${ab}${Math.max(2, f)}${String(between(r, 1, 30)).padStart(2, '0')}호`;
    case 'knowledge': return chance(r, 0.06) ? `지하1층 B${between(r, 101, 130)}호` : `${ab}${Math.max(2, f)}${String(between(r, 1, 40)).padStart(2, '0')}호`;
    case 'tower': { const g = role === 'shop' ? 1 : Math.max(2, f); return pick(r, [`${g}층`, `${g}층`, `${g}층 ${g}0${line}호`, `${g}${String(line).padStart(2, '0')}호`]); }
    case 'plaza': {
      if (role === 'shop' && chance(r, 0.15)) return pick(r, [`지하1층 B${between(r, 101, 120)}호`, '지하1층']);
      const g = role === 'shop' ? between(r, 1, 2) : Math.max(2, f);
      return pick(r, [`${g}층 ${g}0${between(r, 1, 9)}호`, `${g}층`, `${g}0${between(r, 1, 9)}호`]);
    }
    case 'shopbldg': {
      if (role === 'shop') return pick(r, ['1층', '1층', '1층 101호', '지하1층', '']);
      const g = Math.max(2, f);
      return pick(r, [`${g}층`, `${g}층`, `${g}0${line}호`, `${g}층 ${g}0${line}호`]);
    }
    case 'factory': return b.blocks > 1 && chance(r, 0.5) ? pick(r, ['A동', 'B동', '제2동']) : '';
    case 'house': case 'public': return '';
  }
}

export function buildDirectory(r: Rand, buildings: number, yearNow: number): Directory {
  const sigungu: Sigungu[] = TABLE.map((spec) => ({
    spec, sido: spec.sido, name: spec.sgg, profile: spec.p, weight: spec.w, areas: parseAreas(r, spec), taxOffices: spec.tax.split(' '),
  }));
  const total = sigungu.reduce((t, s) => t + s.weight, 0);
  const out: Building[] = [];
  const lines: string[] = [];
  const relatedLines: string[] = [];
  const serial = { n: 0 };
  for (const s of sigungu) {
    const planned = Math.round((buildings * s.weight) / total * 1.03);
    const roads = new Map<string, Road>();
    let roadSeq = 0;
    const road = (name: string, main: boolean): Road => {
      let rd = roads.get(name);
      if (!rd) {
        rd = { name, code: `${s.spec.code}${String(3_000_000 + roadSeq++ * 7).padStart(7, '0')}`, main, former: null, next: between(r, 1, 40), used: new Set(), zipIndex: between(r, 0, 2) };
        roads.set(name, rd);
      }
      return rd;
    };
    const pool = s.spec.roads.split(' ').filter(Boolean);
    const seoulStyle = s.sido === '서울특별시';
    // the 동/리 each area's buildings stand in, with its own lot counter
    const lots = new Map<string, { next: number; used: Set<string> }>();
    const areaWeights = s.areas.map((a) => (a.rural ? (a.name.endsWith('읍') ? 1.1 : 0.6) : 1) * (0.7 + r() * 0.6));
    const areaTotal = areaWeights.reduce((x, y) => x + y, 0);
    s.areas.forEach((a, ai) => {
      const count = Math.max(8, Math.round((planned * areaWeights[ai]!) / areaTotal));
      const mains: Road[] = a.rural
        ? [road(`${stemOf(a.name)}로`, true), ...a.ris.map((ri) => road(`${stemOf(ri)}로`, true))]
        : Array.from({ length: Math.min(pool.length, 3) }, (_, k) => road(pool[(ai * 2 + k) % pool.length]!, true));
      // branch roads: Seoul numbers them (테헤란로7길), elsewhere by the number they leave from (중앙로12번길)
      const branches: Road[] = [];
      for (const m of mains) {
        const k = a.rural ? between(r, 1, 2) : between(r, 3, 6);
        for (let j = 0; j < k; j++) {
          // a 길 branches as 연무장7길 in Seoul, 달맞이길62번길 elsewhere
          const numbered = seoulStyle || chance(r, 0.15);
          const n = numbered ? between(r, 1, 40) * (seoulStyle ? 1 : 2) + 1 : between(r, 2, 300) * 2;
          branches.push(road(numbered ? `${m.name.replace(/길$/, '')}${n}길` : `${m.name}${n}번길`, false));
        }
      }
      // about one branch in 25 was renamed since the road-name addresses came in
      for (const b of branches) {
        if (b.former === null && chance(r, 0.04)) b.former = { name: `${stemOf(a.ris[0] ?? a.name)}${pick(r, ['안', '중앙', '샛', '동', '서', '새'])}${between(r, 1, 12)}길`, until: 2015 + r() * 8 };
      }
      const mix = a.rural ? MIX.rural : MIX[s.profile];
      for (let i = 0; i < count; i++) {
        let kind = weighted(r, a.hub ? { ...mix, knowledge: (mix.knowledge ?? 0) * 5 + 0.03, factory: (mix.factory ?? 0) * 2 + 0.05 } : mix);
        const ri = a.rural ? pick(r, a.ris) : '';
        if (a.rural && a.hubRis.has(ri) && chance(r, 0.35)) kind = 'factory';
        const village = a.rural && !a.name.endsWith('읍');
        const onMain = ['apt', 'tower', 'knowledge', 'plaza', 'officetel'].includes(kind) ? chance(r, 0.8) : chance(r, a.rural ? 0.55 : 0.35);
        const rd = onMain ? pick(r, mains) : pick(r, branches.length > 0 ? branches : mains);
        // building number: odd one side, even the other, a few metres apart; sometimes a 부번 (12-3)
        let main: number;
        let sub = 0;
        const prev = [...rd.used].at(-1);
        if (!rd.main && prev && chance(r, 0.15)) {
          main = Number(prev.split('-')[0]);
          sub = between(r, 1, 9);
        } else {
          rd.next += between(r, 1, rd.main ? 9 : 4) * 2 - (chance(r, 0.5) ? 1 : 0);
          main = rd.next;
        }
        if (rd.used.has(`${main}-${sub}`)) { rd.next += 2; main = rd.next; sub = 0; }
        rd.used.add(`${main}-${sub}`);
        // lot number (지번) in its 동/리
        const lotKey = `${a.name}|${ri}`;
        const lot = lots.get(lotKey) ?? { next: between(r, 1, 150), used: new Set<string>() };
        lots.set(lotKey, lot);
        lot.next += between(r, 1, kind === 'apt' ? 40 : 12);
        const jibunMain = lot.next;
        const jibunSub = chance(r, 0.5) ? 0 : between(r, 1, 40);
        const mountain = a.rural && chance(r, 0.03);
        lot.used.add(`${jibunMain}-${jibunSub}`);
        const relatedLots: { main: number; sub: number }[] = [];
        if ((kind === 'apt' && chance(r, 0.6)) || (['knowledge', 'tower', 'plaza', 'factory'].includes(kind) && chance(r, 0.25))) {
          for (let k = between(r, 1, 3); k > 0; k--) {
            const rl = { main: jibunMain + k, sub: chance(r, 0.6) ? 0 : between(r, 1, 20) };
            if (!lot.used.has(`${rl.main}-${rl.sub}`)) { lot.used.add(`${rl.main}-${rl.sub}`); relatedLots.push(rl); }
          }
          lot.next += 4;
        }
        const since = Math.max(a.since, a.sinceRi.get(ri) ?? 1960);
        const built = since > 1960 ? since + r() * (yearNow - since) * 0.7 : (chance(r, 0.6) ? 1975 + r() * 30 : 2005 + r() * 19);
        const place = stemOf(a.rural ? (ri || a.name) : a.name);
        const name = buildingName(r, kind, place);
        const sh = shape(r, kind, a.rural);
        const demolished = !a.rural && ['house', 'villa', 'shopbldg'].includes(kind) && built < 1995 && chance(r, 0.07) ? 2015 + r() * 9 : null;
        const formerName = name && ['tower', 'knowledge', 'plaza', 'officetel'].includes(kind) && chance(r, 0.1)
          ? { name: buildingName(r, kind, place), until: Math.max(built + 1, 2012 + r() * 11) } : null;
        const legal = `${s.spec.code}${a.code}${a.rural ? String(21 + a.ris.indexOf(ri)).padStart(2, '0') : '00'}`;
        const buildingId = `${legal}${mountain ? '2' : '1'}${String(jibunMain).padStart(4, '0')}${String(jibunSub).padStart(4, '0')}${String(++serial.n).padStart(6, '0')}`;
        const number = `${main}${sub ? `-${sub}` : ''}`;
        const entry: DirectoryEntry = {
          buildingId, zipcode: a.zips[rd.zipIndex % a.zips.length]!, sido: s.sido, sigungu: s.name, eupmyeondong: a.name, ri, roadName: rd.name,
          underground: false, buildingMain: main, buildingSub: sub, jibunMountain: mountain, jibunMain, jibunSub, buildingName: name,
          roadAddress: [s.sido, s.name, a.rural ? a.name : '', rd.name, number].filter(Boolean).join(' '),
          apartment: kind === 'apt' || kind === 'villa',
          ...(formerName ? { registerName: formerName.name } : {}),
        };
        const b: Building = {
          index: out.length, entry, kind, sgg: s, area: a, road: rd, rural: a.rural, village, built, demolished, formerName, relatedLots,
          floors: sh.floors, blocks: sh.blocks, cap: sh.cap, virtualUnit: null,
        };
        out.push(b);
        if (demolished !== null) continue;
        const adminDong = a.rural ? a.name : /[0-9]가$/.test(a.name) ? a.name : `${stemOf(a.name)}${between(r, 1, 2)}동`;
        lines.push(addressDbLine(entry, {
          apartment: entry.apartment, roadCode: rd.code, adminDongName: adminDong,
          effectiveDate: `${Math.max(2012, Math.floor(built) + 1)}${String(between(r, 1, 12)).padStart(2, '0')}${String(between(r, 1, 28)).padStart(2, '0')}`,
          ...(rd.former ? { formerRoadAddress: [s.sido, s.name, a.rural ? a.name : '', rd.former.name, number].filter(Boolean).join(' ') } : {}),
        }));
        for (const rl of relatedLots) relatedLines.push(relatedLotLine(entry, { main: rl.main, sub: rl.sub }));
      }
    });
  }
  // shared offices (비상주 사무실): a few towers, officetels and 지식산업센터 rent one room to many registrants
  const hosts = out.filter((b) => b.demolished === null && ['tower', 'officetel', 'knowledge'].includes(b.kind) && b.sgg.profile !== 'rural');
  for (let i = 0; i < 45 && hosts.length > 0; i++) {
    const b = pick(r, hosts);
    const f = between(r, 2, b.floors);
    b.virtualUnit = pick(r, [`${f}층 ${f}0${between(r, 1, 9)}호`, `${f}${String(between(r, 1, 20)).padStart(2, '0')}호`, `${f}층`]);
  }
  return { sigungu, buildings: out, lines, relatedLines };
}

/** Numbers used on a road (to make one that does not exist). */
export function missingNumberOn(r: Rand, b: Building): number {
  for (let t = 0; t < 50; t++) {
    const digits = String(b.entry.buildingMain);
    const candidate = t < 3 && digits.length >= 2
      ? Number(digits.slice(0, -2) + digits.at(-1)! + digits.at(-2)!)
      : b.entry.buildingMain + pick(r, [-1, 1, 10, -10, 100, 3, 7]) * between(r, 1, 3);
    if (candidate > 0 && ![...b.road.used].some((u) => u.startsWith(`${candidate}-`))) return candidate;
  }
  return b.road.next + 200;
}
