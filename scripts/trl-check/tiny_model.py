"""For ./check.sh: a tiny random GPT-2 (2 layers, C = 32) and a character tokenizer over printable ASCII,
saved to ./tiny in the working directory, to stand in for the exported scripts' MODEL_NAME."""
from tokenizers import Tokenizer, models, pre_tokenizers, decoders
from transformers import PreTrainedTokenizerFast, GPT2Config, GPT2LMHeadModel
import string
chars = list(string.printable)
vocab = {"<pad>":0, "<eos>":1}
for c in chars:
    if c not in vocab: vocab[c] = len(vocab)
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<pad>"))
tok.pre_tokenizer = pre_tokenizers.Split(pattern="", behavior="isolated")
tok.decoder = decoders.Fuse()
fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>", bos_token="<eos>")
fast.save_pretrained("tiny")
cfg = GPT2Config(vocab_size=len(vocab), n_positions=64, n_embd=32, n_layer=2, n_head=2, bos_token_id=1, eos_token_id=1, pad_token_id=0)
GPT2LMHeadModel(cfg).save_pretrained("tiny")
print(fast("37+45=").input_ids, fast.decode(fast("37+45=").input_ids))
