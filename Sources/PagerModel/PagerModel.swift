// PagerModel
