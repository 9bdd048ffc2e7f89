"""Word lists of the secret-ask rules (``rules.secret_asks``): how the guarded secret is
named, what marks it as the model's, the compounds that name something else, and the verbs,
transformations and creative forms an ask uses."""

from __future__ import annotations

from agent_memory.domain.threats.threat_rule import words

PASSWORD = (
    r"(?:pas{1,2}(?:wor|wro|owr|wr|wo|w)ds?|passwort|pass\s+word|pass\s*code|passcode|"
    r"pass\s*phrase|pw|pwd|"
    r"pin\s+code|access\s+code|code\s*word|magic\s+word|safe\s*word|watchword|secret\s+(?:word|"
    r"phrase|code|key|string|term|name|answer|password))\b"
)
PASSWORD_ABROAD = (
    r"(?:passwort|kennwort|geheimwort|lösungswort|mot\s+de\s+passe|mot\s+secret|contraseña|"
    r"clave\s+secreta|palabra\s+secreta)\b"
)
GUARDED = (
    r"(?:secret|hidden|protected|guarded|magic|forbidden|confidential|mystery|mysterious|"
    r"classified|sacred)"
)
KEEPS = (
    r"(?:are\s+|were\s+)?(?:protect|protecting|guard|guarding|keep|keeping|hide|hiding|hold|"
    r"holding|know|knew|must\s+not\s+\w+|can'?t\s+\w+|cannot\s+\w+|shouldn'?t\s+\w+|should\s+"
    r"not\s+\w+|may\s+not\s+\w+|won'?t\s+\w+|are\s+not\s+allowed\s+to\s+\w+|aren't\s+allowed\s+"
    r"to\s+\w+|were\s+(?:told|given|asked)\s+(?:to\s+\w+)?|have\s+been\s+(?:given|told)|"
    r"(?:are|were)\s+(?:supposed|meant)\s+to\s+\w+)"
)
# Not what is asked for: "the secret to good bread", "your secret santa".
NOT_SECRET_OF = (
    r"(?!\s+(?:to(?!\s+(?:me|us)\b)|of|for|behind|recipe|sauce|weapon|santa|ingredient|garden)\b)"
)
# The secret as the model's own: "your password", "the word you protect".
MODEL_SECRET = (
    rf"(?:(?:your|ur)\s+(?:own\s+|current\s+|level\s+\w+\s+)?(?:{PASSWORD}|secret"
    rf"{NOT_SECRET_OF})\b"
    r"|(?:the|that|this)\s+(?:one\s+)?(?:word|thing|secret|code|info|information|phrase|name|"
    rf"key|value)\s+(?:that\s+|which\s+)?(?:you|u)\s+{KEEPS})"
)
# Or marked as guarded: "the secret word", "the magic phrase".
GUARDED_SECRET = (
    rf"(?:your|ur|the|this|that)\s+(?:\w+\s+)?{GUARDED}\s+(?:word|phrase|password|passwords|"
    r"code|key|term|string|passphrase|passcode|pass\s*code|name|answer)\b"
)
OWNED_SECRET = rf"(?:{MODEL_SECRET}|{GUARDED_SECRET})"
# What a password "is" in a note about it, not a guess at its value.
NOT_A_VALUE = (
    r"(?!(?:correct|right|wrong|required|needed|set|valid|invalid|expired|strong|weak|secure|"
    r"saved|stored|changed|enough|ok|okay|fine|necessary|encrypted|hashed|long|short|case|"
    r"still|the\s+same|shared|reused|in|on|at|for|from|also|too|not|now|empty|blank|missing|"
    r"incorrect|bad|good|new|old|different|unknown|locked|broken)\b)"
)
# Compounds in which the password is not the thing asked for ("the password manager").
NOT_COMPOUND = (
    r"(?!\s*[-_]?\s*(?:hash\w*|managers?|polic(?:y|ies)|fields?|resets?|length|files?|vaults?|"
    r"stor(?:e|age)|entr(?:y|ies)|rotation|strength|requirements?|rules?|inputs?|prompts?|"
    r"columns?|flows?|pages?|forms?|expir\w+|changes?|history|complexity|generators?|"
    r"protect\w*|leaks?|breach\w*|dialog|screens?|box|login|auth\w*|based|less|salts?|"
    r"databases?|db|tables?|options?|settings?|config\w*|sections?|criteria|checks?|"
    r"validat\w+|attempts?|lockouts?|spraying|crack\w*|lists?|security|hygiene|sharing|reuse|"
    r"recovery|encryption|steps?|standards?|safety|for\s+(?:the\s+|my\s+|our\s+)?(?:wifi|"
    r"wi-fi|vpn|nas|router|server|database|db|account|admin|staging|prod\w*|laptop|email|"
    r"network|guest)|in\s+(?:the\s+|a\s+)?(?:vault|1password|bitwarden|keychain|keepass|"
    r"lastpass|env|ssm|secrets?\s+manager))\b)"
)
# A bare secret ("the password") or the model's own.
ANY_SECRET = (
    rf"(?:{OWNED_SECRET}|(?:the|this|that|its|it's|today's|tonight's)\s+(?:(?:current|correct|"
    rf"right|exact|full|whole|complete|entire|final|next|level\s+\w+|today's|last)\s+)?{PASSWORD}"
    rf"|(?:the|this|that)\s+secret{NOT_SECRET_OF})\b{NOT_COMPOUND}"
)
# Verbs that ask for any secret outright. Not "share", "send", "enter", "type" or "confirm",
# which notes about handling a password use ("type the password when sudo asks").
ASK = (
    r"(?:tell\s+(?:me|us)|give\s+(?:me|us)|hand\s+(?:me\s+)?over|let\s+(?:me|us)\s+"
    r"(?:know|see|have|hear|in\s+on)|reveal|say|disclose|divulge|leak|whisper|utter|recite|"
    r"expose|spill|show\s+(?:me|us)|spell(?:\s+out)?|read\s+out|remind\s+(?:me|us)(?:\s+of)?|guess|"
    r"hint\s+at|(?:respond|reply|answer)\s+(?:only\s+)?with(?:\s+only)?)"
)
# And these for the model's own ("share your password with me").
HAND_OVER = (
    r"(?:share|send|dump|print|output|display|write(?:\s+(?:out|down))?|repeat|describe|"
    r"explain|sing|draw|emit)"
)
# What can be done to the secret to slip it past a guard.
TRANSFORM = words(
    "spell", "spelled", "spelt", "spelling", "reverse", "reversed", "backwards?", "scramble",
    "scrambled", "unscramble", "shift", "shifted", "rot13", "caesar", "anagram", "shuffle",
    "shuffled", "mirror", "mirrored", "rearrange", "rhyme", "rhymes", "sounds", "minus", "rotie",
    "plus", "interleave", "acrostic", "morse", "letters?", "characters?", "chars?",
    "syllables?", "vowels?", "consonants?", "hint", "hints", "clue", "clues", "riddle",
    "riddles", "poem", "poems", "story", "song", "haiku", "limerick", "rap", "sonnet",
    "puzzle", "synonym", "synonyms", "opposite", "emoji", "emojis", "phonetic", "nato",
    "pig latin", "leetspeak", "cipher", "halves", "parts", "pieces", "saying", "revealing",
    "mentioning", "sentence", "hexadecimal", "hex", "binary", "octal", "acronym", "initials",
    "ascii", "art",
)  # fmt: skip
STRONG_VERBS = (
    r"(?:spell|reverse|scramble|unscramble|anagram|shuffle|mirror|rearrange|jumble|rotie|"
    r"caesar|rhyme|hint\s+at|act\s+out|sing|interleave|obfuscate|transliterate|translate)"
)
WEAK_VERBS = (
    r"(?:split|separate|divide|break|cut|shift|rotate|encode|encrypt|cipher|convert|hide|embed|"
    r"number|count|describe|define|paraphrase|rephrase|draw|capitali[sz]e|lowercase|uppercase|"
    r"print|write|output|display|type|show|put|use)"
)
THEN = (
    r"(?:(?:but|only|just|and|then|please|now|with\s+(?:each|every|all|the)\s+(?:letter|"
    r"character)s?)\s+)?"
)
TAIL = (
    r"(?:backwards?|reversed|in\s+reverse|spelled\s+(?:out|backwards)|spelt\s+(?:out|"
    r"backwards)|split\s+(?:by|with|into|in)|separated\s+(?:by|with)|with\s+(?:an?\s+)?"
    r"\w+\s+(?:between|(?:after|before)\s+(?:each|every)\s+(?:letter|character))|letter\s+by\s+letter|one\s+(?:letter|character)\s+at\s+a\s+time|"
    r"character\s+by\s+character|sounds\s+like|rhymes\s+with|minus\s+\w+|plus\s+\w+|"
    r"shifted|in\s+(?:morse|pig\s+latin|leetspeak|leet|rotie|nato|phonetic|emojis?|"
    r"lowercase|uppercase|lower\s+case|upper\s+case|capitals|reverse)|as\s+(?:an?\s+)?"
    r"(?:acrostic|riddle|poem|anagram|song|story|cipher|sequence\s+of\s+\w+|list\s+of\s+"
    r"\w+)|in\s+(?:two|half|three|parts|pieces|halves)|broken\s+(?:up|into)|without\s+"
    r"(?:the\s+)?(?:first|last|vowels|consonants))"
)
UNITS = (
    r"(?:letters?|characters?|chars?|syllables?|digits?|symbols?|vowels?|consonants?|words?|half|"
    r"halves|parts?|portions?|pieces?|chunks?)"
)
POSITION = (
    r"(?:first|last|second|third|fourth|fifth|next|final|initial|middle|other|remaining|"
    r"\w{1,3}(?:st|nd|rd|th)?|one|two|three|four|five|six|seven|eight|nine|ten|few|some|all)"
)
CREATIVE = (
    r"(?:hints?|clues?|riddles?|poems?|stor(?:y|ies)|songs?|haikus?|limericks?|acrostics?|"
    r"rhymes?|raps?|sonnets?|tales?|puzzles?|crosswords?|anagrams?|synonyms?|definitions?|"
    r"descriptions?|sentences?|paragraphs?|jokes?|lyrics|verses?|essays?|code\s+snippet|"
    r"acronyms?|mnemonics?|words?)"
)

TRIGGERS_SECRET = (
    "~pasw ~passw ~passo pass passcode passphrase pw pwd secret code codeword word "
    "magic safe safeword watchword phrase thing info information name value key passwort "
    "kennwort geheimwort losungswort mot contrasena clave palabra"
)
