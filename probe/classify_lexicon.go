package probe

import (
	"strings"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Purpose words: short multilingual lists of the words that say what a form is for
// ("search", "log in", "subscribe"). They name purposes of forms, not subjects of sites,
// so they carry no domain knowledge. The classifiers see them as a few dense features
// ("lex:search@ident") whose weights are learned; a word too rare in the training pages
// to get a weight of its own ("buscar", "keywords") then still counts through its list.

// lexicon maps a purpose to its words. A word with a space or of 4 letters or more also
// matches inside identifiers and compound words ("newsletterEmail"); shorter ones match
// whole words only.
var lexicon = map[string][]string{
	"search": {"search", "find", "lookup", "query", "keyword", "keywords", "suche", "suchen",
		"recherche", "rechercher", "buscar", "busca", "busqueda", "pesquisar", "pesquisa",
		"cerca", "ricerca", "zoeken", "zoek", "szukaj", "hledat", "sok", "haku", "arama", "ara",
		"cauta", "поиск", "найти", "искать", "пошук", "搜索", "搜尋", "检索", "検索", "검색",
		"بحث", "جستجو", "חיפוש", "ค้นหา", "go",
		// the options of a query: how its words match
		"any words", "all words", "all the words", "any of the words", "exact phrase",
		"whole word", "whole words", "match case", "matching"},
	"login": {"login", "log in", "signin", "sign in", "logon", "log on", "sign on", "anmelden",
		"anmeldung", "einloggen", "connexion", "se connecter", "identifier", "iniciar sesion",
		"entrar", "acceder", "accedi", "inloggen", "zaloguj", "войти", "вход", "登录", "登入",
		"ログイン", "로그인", "remember me", "stay signed", "keep me"},
	"register": {"register", "registration", "sign up", "signup", "create account",
		"create an account", "create your account", "join", "registrieren", "registrierung",
		"inscription", "inscrire", "registrarse", "registro", "crear cuenta", "registrati",
		"registreren", "zarejestruj", "регистрация", "зарегистрироваться", "注册", "註冊",
		"新規登録", "confirm password", "repeat password", "retype"},
	"recover": {"forgot", "forgotten", "reset", "recover", "recovery", "lost password",
		"remind", "vergessen", "oublie", "olvido", "olvidaste", "dimenticato", "забыли",
		"восстанов", "忘记", "パスワードを忘れ"},
	"contact": {"contact", "message", "comment", "feedback", "enquiry", "inquiry", "kontakt",
		"nachricht", "kommentar", "commentaire", "mensaje", "comentario", "messaggio",
		"commento", "reply", "review", "subject", "question", "сообщение", "комментарий",
		"留言", "评论"},
	"newsletter": {"newsletter", "subscribe", "subscription", "mailing list", "updates",
		"abonnieren", "abonner", "abonnement", "suscribir", "suscribete", "iscriviti",
		"inschrijven", "рассылка", "подписаться", "订阅"},
	"order": {"cart", "basket", "bag", "buy", "checkout", "quantity", "qty", "order",
		"purchase", "coupon", "voucher", "warenkorb", "kaufen", "panier", "acheter", "carrito",
		"comprar", "carrello", "winkelwagen", "koszyk", "корзин", "купить", "заказ", "购物车",
		"カート"},
	// Forms that change how a site is shown or behaves for the visitor, not which
	// records it lists.
	"settings": {"settings", "preferences", "preference", "options", "configuration", "config",
		"customize", "customise", "theme", "skin", "per page", "rows", "display", "layout",
		"einstellungen", "parametres", "reglages", "configuración", "ajustes",
		"preferencias", "impostazioni", "instellingen", "настройки", "设置", "設定"},
	// Filter panels: conditions on columns and facets of the records.
	"filter": {"filter", "filters", "refine", "narrow", "facet", "facets", "criteria",
		"condition", "conditions", "operator", "contains", "equals", "between", "filtern",
		"filtre", "filtrer", "filtro", "filtrar", "фильтр", "筛选"},
	// Code boxes (SQL, regular expressions, data formats) take programs, not query
	// words. Not "code" (a postcode, a promo code) nor "script" (inside "description").
	"code": {"sql", "regex", "regexp", "json", "xml", "yaml", "xpath", "codemirror",
		"source code", "ace editor"},
}

// lexiconKeys fixes the order in which purposes are tested.
var lexiconKeys = []string{"search", "login", "register", "recover", "contact", "newsletter", "order",
	"settings", "filter", "code"}

// lexWord is a folded purpose word with how it may match.
type lexWord struct {
	word     string // folded
	padded   string // " " + word + " ", to match whole words
	prefix   string // " " + word, to match inflected forms in text ("searching")
	compound bool   // may match inside an identifier (4 letters or more, one word)
	script   bool   // not ASCII (all are 2 runes or more): matches inside words (scripts without spaces, stems)
}

// foldedLexicon holds the words of lexicon, folded once, in lexiconKeys order.
var foldedLexicon = func() [][]lexWord {
	out := make([][]lexWord, len(lexiconKeys))
	for i, k := range lexiconKeys {
		for _, w := range lexicon[k] {
			fw := textnorm.Fold(w)
			out[i] = append(out[i], lexWord{
				word:     fw,
				padded:   " " + fw + " ",
				prefix:   " " + fw,
				compound: len(fw) >= 4 && !strings.Contains(fw, " "),
				script:   !isLatin(fw),
			})
		}
	}
	return out
}()

// maxSuffix is the longest ending an inflected form may add to a purpose word of four
// letters or more in running text ("searching", "filtered", "subscribed").
const maxSuffix = 3

// inflected reports whether folded (" "-padded tokens) holds w.word followed by at most
// maxSuffix letters.
func inflected(folded string, w lexWord) bool {
	if !w.compound {
		return false
	}
	for i := 0; ; {
		j := strings.Index(folded[i:], w.prefix)
		if j < 0 {
			return false
		}
		k := i + j + len(w.prefix)
		end := strings.IndexByte(folded[k:], ' ')
		if end >= 0 && end <= maxSuffix {
			return true
		}
		i = k
	}
}

// purposes returns the purposes whose words occur in text. ident says that text is made
// of identifiers (names, ids, classes, URLs), where long words match inside compounds;
// in running text, long words also match their inflected forms.
func purposes(text string, ident bool) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	folded := " " + strings.Join(textnorm.Tokens(splitCamel(text)), " ") + " "
	compact := ""
	if ident {
		compact = strings.Join(identWords(text), " ")
	}
	var out []string
	for i, words := range foldedLexicon {
		for _, w := range words {
			if strings.Contains(folded, w.padded) ||
				(ident && w.compound && strings.Contains(compact, w.word)) ||
				(!ident && inflected(folded, w)) ||
				(w.script && strings.Contains(folded, w.word)) {
				out = append(out, lexiconKeys[i])
				break
			}
		}
	}
	return out
}

// isLatin reports whether s is written in ASCII letters only; words of other scripts
// (Chinese, Japanese) are not separated by spaces and match as substrings.
func isLatin(s string) bool {
	for _, r := range s {
		if r >= 0x80 {
			return false
		}
	}
	return true
}

// addPurposes adds lex:<purpose>@<where> features for the purposes found in text.
func (s *featureSet) addPurposes(where, text string, ident bool) {
	for _, p := range purposes(text, ident) {
		s.add("lex:" + p + "@" + where)
	}
}
