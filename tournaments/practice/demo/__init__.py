"""The demo (docs/web.md "The demo"): a guest's round against Bot Anna on a stacked deal with a guide.
`services.py` starts it, `script.py` is the deal and the guide's steps, `views.py` is `/demo/`."""
